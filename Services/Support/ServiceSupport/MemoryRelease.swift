#if canImport(Glibc)
import Glibc
#endif

/// Gives freed heap pages back to the system. glibc keeps what a burst of large allocations freed
/// (a connection's unsent answers, say) in its arenas, so a daemon's resident memory stays at its
/// peak long after the burst; `malloc_trim` returns what it can. Swift's Glibc module does not
/// export it, so it is looked up once by name; elsewhere this does nothing.
public enum MemoryRelease {
    private typealias Trim = @convention(c) (Int) -> Int32

    #if canImport(Glibc)
    // RTLD_DEFAULT: the symbol as the process already links it.
    private static let function: Trim? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim").map {
        unsafeBitCast($0, to: Trim.self)
    }
    #endif

    public static func trim() {
        #if canImport(Glibc)
        _ = function?(0)
        #endif
    }
}
