extension EntityRecord {
    /// The error for a row that does not decode as its type: names the type, the id and, when
    /// the decoding error says which, the property (a property the row has no value for, or one
    /// whose stored value is of another type).
    @usableFromInline
    func undecodable(_ error: any Error) -> RelataError {
        var message = "the stored \(type) \"\(id)\" cannot be decoded with the current model"
        if let error = error as? DecodingError {
            switch error {
            case .keyNotFound(let key, let context):
                message += ": it has no value for the property \(Self.path(context.codingPath + [key]))"
            case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
                if !context.codingPath.isEmpty { message += ": the property \(Self.path(context.codingPath)) does not decode" }
            @unknown default:
                break
            }
        }
        return RelataError(code: .undecodableRecord, entityType: type, id: id, message: message, underlying: error)
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }
}
