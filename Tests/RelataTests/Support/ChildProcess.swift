import Foundation

/// Runs a program to its end and returns what it printed (both streams): for the tests that run
/// the project's executables or the compiler.
enum ChildProcess {
    struct Result {
        let status: Int32
        /// Whether a signal ended it (a crash), rather than an exit.
        let signaled: Bool
        let output: String
    }

    static func run(_ executable: URL, _ arguments: [String]) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal, output: String(decoding: data, as: UTF8.self))
    }
}
