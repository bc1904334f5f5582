import Foundation
import NIOSSL
import PostgresNIO
import RelataCore

/// Reads `postgres://user:password@host:port/database?sslmode=…&sslrootcert=…` into connection
/// settings, and a description of the server (host, port, database) for errors: never the
/// credentials.
///
/// - `sslmode` has libpq's meanings: `disable` (plain text), `prefer` (TLS when the server offers
///   it, certificate not checked), `require` (TLS or fail; the certificate is checked against
///   `sslrootcert` when one is given, as libpq does, otherwise not), `verify-ca` (TLS, the
///   certificate signed by a trusted CA), `verify-full` (also issued for the host name). Without
///   `sslmode`, the configuration's `tls` applies. libpq's `allow` (plain text first) is refused.
/// - `sslrootcert`: a PEM file of the CAs to trust (by default the system's).
/// - Any other parameter is refused: a setting that is silently ignored is worse than none.
/// - User and password are percent-decoded once; what does not decode is refused.
enum PostgresURL {
    static func parse(_ url: String, tls: PostgresConnection.Configuration.TLS) throws -> (PostgresConnection.Configuration, String) {
        guard let components = URLComponents(string: url), ["postgres", "postgresql"].contains(components.scheme ?? ""),
            let host = components.host, !host.isEmpty
        else {
            throw refuse("not a PostgreSQL URL: expected postgres://user:password@host:port/database")
        }
        let port = components.port ?? 5432
        // The credentials are read from the text as written (URLComponents re-encodes a malformed
        // escape instead of refusing it) and decoded exactly once.
        let (encodedUser, encodedPassword) = userInfo(url)
        let user: String
        if let encodedUser {
            guard let decoded = percentDecoded(encodedUser), !decoded.isEmpty else {
                throw refuse("the user name in the PostgreSQL URL is not valid percent-encoded text")
            }
            user = decoded
        } else {
            user = "postgres"
        }
        var password: String?
        if let encodedPassword {
            guard let decoded = percentDecoded(encodedPassword) else {
                throw refuse("the password in the PostgreSQL URL is not valid percent-encoded text")
            }
            password = decoded
        }
        guard let database = percentDecoded(
            components.percentEncodedPath.hasPrefix("/") ? String(components.percentEncodedPath.dropFirst()) : components.percentEncodedPath
        ) else {
            throw refuse("the database name in the PostgreSQL URL is not valid percent-encoded text")
        }
        let place = "PostgreSQL \(host):\(port)/\(database.isEmpty ? user : database)"
        var chosen = tls
        var parameters: [String: String] = [:]
        for item in components.queryItems ?? [] {
            guard ["sslmode", "sslrootcert"].contains(item.name) else {
                throw refuse("the PostgreSQL URL parameter \"\(item.name)\" is not supported (only sslmode and sslrootcert are)")
            }
            guard parameters[item.name] == nil else { throw refuse("the PostgreSQL URL gives \(item.name) twice") }
            parameters[item.name] = item.value ?? ""
        }
        if let mode = parameters["sslmode"] {
            chosen = try Self.tls(mode: mode, rootCertificate: parameters["sslrootcert"], host: host)
        } else if parameters["sslrootcert"] != nil {
            throw refuse("the PostgreSQL URL gives sslrootcert without sslmode")
        }
        let settings = PostgresConnection.Configuration(
            host: host, port: port, username: user, password: password, database: database.isEmpty ? nil : database, tls: chosen
        )
        return (settings, place)
    }

    /// The TLS of libpq's `sslmode`.
    static func tls(mode: String, rootCertificate: String?, host: String) throws -> PostgresConnection.Configuration.TLS {
        var configuration = TLSConfiguration.makeClientConfiguration()
        if let rootCertificate {
            guard FileManager.default.isReadableFile(atPath: rootCertificate) else {
                throw refuse("the sslrootcert file \(rootCertificate) cannot be read")
            }
            configuration.trustRoots = .file(rootCertificate)
        }
        switch mode {
        case "disable":
            return .disable
        case "prefer":
            configuration.certificateVerification = .none
            return .prefer(try context(configuration))
        case "require":
            configuration.certificateVerification = rootCertificate == nil ? .none : .noHostnameVerification
            return .require(try context(configuration))
        case "verify-ca":
            configuration.certificateVerification = .noHostnameVerification
            return .require(try context(configuration))
        case "verify-full":
            // The host name is checked against the certificate; an IP address cannot be (TLS's
            // server name is a host name), so it is refused rather than checked less.
            guard !host.contains(":"), !host.allSatisfy({ $0.isNumber || $0 == "." }) else {
                throw refuse("sslmode verify-full needs a host name, not the IP address \(host)")
            }
            configuration.certificateVerification = .fullVerification
            return .require(try context(configuration))
        case "allow":
            throw refuse("sslmode allow (plain text first) is not supported: use prefer, require, verify-ca or verify-full")
        default:
            throw refuse("unknown sslmode \"\(mode)\": use disable, prefer, require, verify-ca or verify-full")
        }
    }

    private static func context(_ configuration: TLSConfiguration) throws -> NIOSSLContext {
        do {
            return try NIOSSLContext(configuration: configuration)
        } catch {
            throw refuse("cannot set up TLS: \(error)")
        }
    }

    /// The user and password of `url` as written (`user:password@` before the host).
    static func userInfo(_ url: String) -> (user: String?, password: String?) {
        guard let scheme = url.range(of: "://") else { return (nil, nil) }
        let rest = url[scheme.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard let at = authority.lastIndex(of: "@") else { return (nil, nil) }
        let info = authority[..<at]
        guard let colon = info.firstIndex(of: ":") else { return (String(info), nil) }
        return (String(info[..<colon]), String(info[info.index(after: colon)...]))
    }

    /// `text` with every `%XX` replaced by its byte, once; `nil` when a `%` is not followed by
    /// two hex digits or the bytes are not UTF-8 (Foundation's decoding is lenient on some
    /// platforms).
    static func percentDecoded(_ text: String) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        func hex(_ byte: UInt8?) -> UInt8? {
            switch byte {
            case let b? where (48...57).contains(b): b - 48
            case let b? where (65...70).contains(b): b - 55
            case let b? where (97...102).contains(b): b - 87
            default: nil
            }
        }
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = hex(iterator.next()), let low = hex(iterator.next()) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func refuse(_ message: String) -> RelataError {
        RelataError(code: .invalidConfiguration, entityType: "Store", message: message)
    }
}
