import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a shell command that may leave daemons behind (`pg_ctl restart`) and waits for the
/// shell's exit status. Not with Foundation's `Process`: it learns that a child ended when a
/// socket the child inherits is closed, and a daemon the child starts keeps it open for ever.
/// Here the child inherits no descriptor beyond 0, 1 and 2, and is reaped with `waitpid`.
enum ShellCommand {
    static func run(_ command: String) throws -> Int32 {
        for _ in 0..<10 {
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.compactMap { Int32($0) } ?? []
            for descriptor in open where descriptor > 2 { posix_spawn_file_actions_addclose(&actions, descriptor) }
            let words: [String] = ["/bin/sh", "-c", command]
            let arguments: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
            defer { for argument in arguments { free(argument) } }
            var pid: pid_t = 0
            let spawned = posix_spawn(&pid, "/bin/sh", &actions, nil, arguments, environ)
            // A descriptor closed by another thread meanwhile fails the spawn: list them again.
            if spawned == EBADF { continue }
            guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL) }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1, errno == EINTR {}
            return (status >> 8) & 0xff
        }
        throw POSIXError(.EBADF)
    }
}
