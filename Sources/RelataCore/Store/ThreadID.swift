#if canImport(Darwin)
import Darwin
#else
import Glibc
#endif

/// A number naming the calling thread (its `pthread_t`), never 0, unique among running threads.
enum ThreadID {
    static var current: UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #else
        UInt(pthread_self())
        #endif
    }
}
