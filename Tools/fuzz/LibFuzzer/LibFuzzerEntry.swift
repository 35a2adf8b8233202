import Foundation
import FuzzTargets

// kclab-libfuzzer: the parsers of kclab-fuzz under libFuzzer, coverage-guided. Built with
// `-sanitize=fuzzer,address -DLIBFUZZER` (make fuzz-coverage), the program holds libFuzzer and hands it the
// target named by KCLAB_FUZZ_TARGET (`list` prints their names); every argument is libFuzzer's.
// When KCLAB_FUZZ_SEEDS names a folder, the target's seeds are written there first, so that
// libFuzzer reads them as its starting corpus. Built without libFuzzer, it says so and stops.

#if LIBFUZZER
/// libFuzzer's driver, for a program that has its own `main`.
@_silgen_name("LLVMFuzzerRunDriver")
func runDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt
#else
func runDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt {
    fail("built without libFuzzer; build it with make fuzz-coverage (-sanitize=fuzzer -DLIBFUZZER)")
}
#endif

/// The parser under fuzzing, chosen before libFuzzer starts.
nonisolated(unsafe) private var selected: FuzzTarget?

/// libFuzzer's entry for one input (its own `main`, linked in but not run, names it too).
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    selected?.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}

private func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("kclab-libfuzzer: \(message)\n".utf8))
    exit(2)
}

let environment = ProcessInfo.processInfo.environment
do {
    let targets = try FuzzTarget.all(worldFile: environment["KCLAB_FUZZ_WORLD"] ?? "Tools/worlds/demo.yaml")
    if environment["KCLAB_FUZZ_TARGET"] == "list" {
        print(targets.map(\.name).joined(separator: "\n"))
        exit(0)
    }
    guard let target = targets.first(where: { $0.name == environment["KCLAB_FUZZ_TARGET"] }) else {
        fail("set KCLAB_FUZZ_TARGET to one of: \(targets.map(\.name).joined(separator: ", "))")
    }
    if let folder = environment["KCLAB_FUZZ_SEEDS"] {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (index, seed) in target.seeds.enumerated() {
            try Data(seed).write(to: URL(filePath: folder).appending(path: "seed-\(index)"))
        }
    }
    selected = target
} catch {
    fail("\(error)")
}
var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(runDriver(&argc, &argv, testOneInput))
