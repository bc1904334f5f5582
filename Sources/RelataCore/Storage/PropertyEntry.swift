/// One property of a split payload: its name (the payload entry's key) and value.
package struct PropertyEntry: Sendable, Equatable {
    package var name: String
    package var value: PropertyValue

    package init(name: String, value: PropertyValue) {
        self.name = name
        self.value = value
    }
}
