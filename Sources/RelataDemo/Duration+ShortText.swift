import Foundation

extension Duration {
    /// The duration as the demo prints it: `12.3 ms`, or `1.23 s` from a second on.
    var shortText: String {
        let ms = Double(components.seconds) * 1_000 + Double(components.attoseconds) / 1e15
        return ms < 1_000 ? String(format: "%.1f ms", ms) : String(format: "%.2f s", ms / 1_000)
    }
}
