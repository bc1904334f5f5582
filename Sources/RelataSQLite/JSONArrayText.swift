/// The JSON text of an array of strings (or of arrays of strings), for SQLite's `json_each`:
/// one statement takes a batch of keys of any size.
///
/// Written by hand because it is on every batched read (Foundation's `JSONEncoder` was 3% of a
/// cold nested resolve): only `"`, `\` and the control characters below U+0020 are escaped,
/// as RFC 8259 requires; everything else is copied as UTF-8.
enum JSONArrayText {
    /// `["a","b"]` for `["a", "b"]`.
    static func encode(_ values: [String]) -> String {
        var text = "["
        text.reserveCapacity(values.reduce(2) { $0 + $1.utf8.count + 3 })
        for (index, value) in values.enumerated() {
            if index > 0 { text += "," }
            append(value, to: &text)
        }
        text += "]"
        return text
    }

    /// `[["a","b"],["c"]]` for `[["a", "b"], ["c"]]`.
    static func encode(_ values: [[String]]) -> String {
        "[" + values.map(encode).joined(separator: ",") + "]"
    }

    /// Appends `value` as a JSON string.
    private static func append(_ value: String, to text: inout String) {
        text += "\""
        // Most ids need no escape: copied whole.
        guard value.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) else {
            text += value
            text += "\""
            return
        }
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
