import Foundation

/// Saves the input being parsed when the process dies of a signal (a Swift trap is SIGILL or
/// SIGTRAP): the handler only calls write(2) and _exit(2), which are safe there.
enum CrashCapture {
    // Written by the fuzzing loop only, on one thread; read by the signal handler. No lock: a
    // handler may take none, and the loop is stopped while it runs.
    nonisolated(unsafe) static var buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 22, alignment: 1)
    nonisolated(unsafe) static var length = 0
    /// Where a crash of the current target writes its input (a C string, made before any crash).
    nonisolated(unsafe) static var path: UnsafeMutablePointer<CChar>? = nil

    /// Names the file a crash of the next target goes to, and installs the handlers.
    static func arm(file: String) {
        free(path)
        path = strdup(file)
        for number in [SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGABRT, SIGFPE] {
            signal(number, handler)
        }
    }

    /// Keeps a copy of the input about to be parsed.
    static func remember(_ input: [UInt8]) {
        length = min(input.count, buffer.count)
        input.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress ?? UnsafeRawPointer(buffer.baseAddress!), byteCount: length) }
    }

    private static let handler: @convention(c) (Int32) -> Void = { number in
        if let path = CrashCapture.path {
            let saved = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            if saved >= 0 {
                _ = write(saved, CrashCapture.buffer.baseAddress, CrashCapture.length)
                close(saved)
            }
        }
        let message = "kclab-fuzz: crashed on a saved input\n"
        _ = message.withCString { write(2, $0, strlen($0)) }
        _exit(128 + number)
    }
}
