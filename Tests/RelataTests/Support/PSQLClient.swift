import Foundation

/// Another PostgreSQL client, as `psql` processes: one holding what a command takes (a lock) while
/// it runs, and one-line queries.
enum PSQLClient {
    /// Starts `psql` running `command` on `url`, its output discarded; the caller terminates it.
    static func start(_ url: String, _ command: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["psql", url, "-q", "-c", command]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// The answer of the one-value query `sql` on `url`, trimmed; `nil` when `psql` cannot run.
    static func value(_ url: String, _ sql: String) -> String? {
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        probe.arguments = ["psql", url, "-tAc", sql]
        let pipe = Pipe()
        probe.standardOutput = pipe
        guard (try? probe.run()) != nil else { return nil }
        probe.waitUntilExit()
        return String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
