import Foundation

/// Encodes values in ``PayloadFormat``. One encoder may be reused for many values, on one
/// thread at a time.
@usableFromInline
final class PayloadEncoder {
    /// The bytes of the last payload, kept for their capacity: encoding many values of one type
    /// allocates once.
    private var scratch: [UInt8] = []

    @usableFromInline init() {}

    /// The payload of `value`.
    @usableFromInline
    func encode<Value: Encodable>(_ value: Value) throws -> Data {
        let root = PayloadNode()
        root.kind = .single
        let encoder = PayloadEncoding(node: root, codingPath: [])
        try root.encodeValue(value, encoder: encoder, key: nil)
        if let error = encoder.failure.error { throw error }
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: PayloadFormat.magic)
        root.write(into: &scratch)
        return Data(scratch)
    }
}

/// A value being encoded: the bytes of a container's entries (or of one value), with the nested
/// values that were asked for as containers or encoders, written in place when the whole is done
/// (a nested container may still be written to after its parent moves on).
final class PayloadNode {
    enum Kind { case unset, keyed, unkeyed, single }

    var kind = Kind.unset
    var bytes: [UInt8] = []
    var count = 0
    /// Nested nodes and the offset in `bytes` where each goes.
    var children: [(offset: Int, node: PayloadNode)] = []

    /// A nested node placed at the current end of `bytes`.
    func child(kind: Kind = .unset) -> PayloadNode {
        let node = PayloadNode()
        node.kind = kind
        node.bytes.reserveCapacity(48)  // most values fit: one allocation, not three
        children.append((bytes.count, node))
        return node
    }

    /// Appends `value`: scalars inline, anything else as a nested node it encodes itself into.
    func encodeValue<Value: Encodable>(_ value: Value, encoder: PayloadEncoding, key: (any CodingKey)?) throws {
        if Value.self == Data.self {
            let data = unsafeBitCast(value, to: Data.self)
            bytes.appendTag(.data)
            bytes.appendVarint(UInt64(data.count))
            bytes.append(contentsOf: data)
        } else if Value.self == URL.self {
            bytes.appendTag(.string)
            bytes.appendText(unsafeBitCast(value, to: URL.self).absoluteString)
        } else if Value.self == Date.self {
            bytes.appendDouble(unsafeBitCast(value, to: Date.self).timeIntervalSinceReferenceDate)
        } else if let value = value as? any PayloadNullValue, value.encodesAsPayloadNull {
            // A relation left `.none` (every relation of a stored entity): the null its
            // `encode(to:)` would write, without a nested encoder and node for it.
            bytes.appendTag(.null)
        } else {
            let node = child()
            let path = key.map { encoder.codingPath + [$0] } ?? encoder.codingPath
            try value.encode(to: PayloadEncoding(node: node, codingPath: path, failure: encoder.failure))
            if node.kind == .unset { node.kind = .keyed }  // encoded nothing: an empty object, like JSON
        }
    }

    /// Writes this node's value into `out`.
    func write(into out: inout [UInt8]) {
        switch kind {
        case .single:
            if bytes.isEmpty && children.isEmpty { out.appendTag(.null) } else { writeContent(into: &out) }
        case .unset, .keyed, .unkeyed:
            out.appendTag(kind == .unkeyed ? .unkeyed : .keyed)
            out.appendVarint(UInt64(count))
            if children.isEmpty {
                out.appendVarint(UInt64(bytes.count))
                out.append(contentsOf: bytes)
            } else {
                var content: [UInt8] = []
                writeContent(into: &content)
                out.appendVarint(UInt64(content.count))
                out.append(contentsOf: content)
            }
        }
    }

    private func writeContent(into out: inout [UInt8]) {
        var start = 0
        for (offset, child) in children {
            out.append(contentsOf: bytes[start..<offset])
            child.write(into: &out)
            start = offset
        }
        out.append(contentsOf: bytes[start...])
    }
}

/// An error met where `Encoder` cannot throw (asking one encoder for two kinds of container),
/// thrown when the encoding ends.
final class PayloadEncodingFailure {
    var error: (any Error)?
}

/// The `Encoder` handed to `encode(to:)`.
final class PayloadEncoding: Encoder {
    let node: PayloadNode
    let codingPath: [any CodingKey]
    let failure: PayloadEncodingFailure
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(node: PayloadNode, codingPath: [any CodingKey], failure: PayloadEncodingFailure = PayloadEncodingFailure()) {
        self.node = node
        self.codingPath = codingPath
        self.failure = failure
    }

    /// Sets the node's kind; a conflicting request is recorded as an error (and gets a detached
    /// node, so the encoding goes on and then throws).
    func claim(_ kind: PayloadNode.Kind) -> PayloadNode {
        if node.kind == .unset { node.kind = kind }
        if node.kind == kind && (kind != .single || node.count == 0) { return node }
        if failure.error == nil {
            failure.error = EncodingError.invalidValue(
                (), .init(codingPath: codingPath, debugDescription: "one value was encoded twice, or as two kinds of container")
            )
        }
        let detached = PayloadNode()
        detached.kind = kind
        return detached
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(PayloadKeyedEncoder<Key>(node: claim(.keyed), encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        PayloadUnkeyedEncoder(node: claim(.unkeyed), encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        PayloadSingleValueEncoder(encoder: self)
    }
}

/// A value that may encode as a single null, which ``PayloadEncoder`` then writes directly.
protocol PayloadNullValue {
    /// Whether `encode(to:)` would write a single null.
    var encodesAsPayloadNull: Bool { get }
}

extension Relation: PayloadNullValue {
    var encodesAsPayloadNull: Bool {
        if case .none = state { true } else { false }
    }
}
