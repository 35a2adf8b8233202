import Foundation
import FuzzTargets

// kclab-libfuzzer: the parsers of kclab-fuzz under libFuzzer, coverage-guided. Built with
// `-sanitize=fuzzer,address` (make fuzz-coverage), libFuzzer supplies `main` and calls the two
// functions below. The target is named by KCLAB_FUZZ_TARGET (`list` prints their names); when KCLAB_FUZZ_SEEDS names a folder,
// the target's seeds are written there first, so that libFuzzer reads them as its starting corpus.

/// The parser under fuzzing, chosen once in ``initialize(_:_:)`` before any input arrives.
nonisolated(unsafe) private var selected: FuzzTarget?

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>)
    -> CInt
{
    let environment = ProcessInfo.processInfo.environment
    let world = environment["KCLAB_FUZZ_WORLD"] ?? "Tools/worlds/demo.yaml"
    do {
        let targets = try FuzzTarget.all(worldFile: world)
        if environment["KCLAB_FUZZ_TARGET"] == "list" {
            print(targets.map(\.name).joined(separator: "\n"))
            exit(0)
        }
        guard let target = targets.first(where: { $0.name == environment["KCLAB_FUZZ_TARGET"] }) else {
            let names = targets.map(\.name).joined(separator: ", ")
            FileHandle.standardError.write(Data("kclab-libfuzzer: set KCLAB_FUZZ_TARGET to one of: \(names)\n".utf8))
            exit(2)
        }
        if let folder = environment["KCLAB_FUZZ_SEEDS"] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for (index, seed) in target.seeds.enumerated() {
                try Data(seed).write(to: URL(filePath: folder).appending(path: "seed-\(index)"))
            }
        }
        selected = target
    } catch {
        FileHandle.standardError.write(Data("kclab-libfuzzer: \(error)\n".utf8))
        exit(2)
    }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    selected?.run(bytes)
    return 0
}
