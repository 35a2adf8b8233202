import AppIdentity
import Foundation
import WorldLayout

/// The test host's Info.plist beside the test bundle while `kclab test` runs it, so that the
/// bundle's `Bundle.main` is the host's (`bundleIdentifier`, `CFBundleName`, …), as it is for a
/// test bundle an Xcode test host loads.
///
/// Foundation on Linux reads the main bundle's Info.plist from the folder of the executable the
/// kernel names (`/proc/self/exe`, so with symbolic links resolved), and from nowhere else: it
/// honours no variable naming another (`CFProcessPath` is read on macOS only) and an ELF file
/// embeds none. So the file goes into the folder the bundle runs from (`.build/debug/` for `swift
/// test`) for the run and is removed when it ends. A file of that name kclab did not write is
/// left as it is.
struct TestHostInfo {
    /// Where the file was written.
    let file: URL
    /// What was written: the file is removed only while it still holds this.
    let contents: Data

    /// The key that marks the file as kclab's, so that one an interrupted run left behind is
    /// replaced, never taken for the package's own.
    static let mark = "KeychainLabTestRun"

    /// What became of the Info.plist for one run.
    enum Placement {
        /// Written: remove it when the run ends.
        case placed(TestHostInfo)
        /// Not written, and why.
        case skipped(String)
    }

    /// Writes `hostInfo` (the host's Info.plist as its device installed it), marked as kclab's,
    /// into `folder`, unless the folder does not exist yet or holds an Info.plist of its own.
    static func place(_ hostInfo: Data, in folder: URL) -> Placement {
        let file = folder.appending(path: AppBundle.Layout.infoPlist)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            return .skipped("\(folder.path) does not exist yet: build the tests first (swift build --build-tests)")
        }
        if let existing = try? Data(contentsOf: file), !isMarked(existing) {
            return .skipped("\(file.path) is not kclab's: it is left as it is, and Bundle.main reads it")
        }
        do {
            var entries = try PlistValue.dictionary(fromPropertyList: hostInfo)
            entries[mark] = .string("written by kclab test for one run, and removed when the run ends")
            let contents = PlistValue.xmlPropertyList(entries)
            try contents.write(to: file)
            // Readable by the app whichever user it runs as; nothing in it is a secret.
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
            return .placed(TestHostInfo(file: file, contents: contents))
        } catch {
            return .skipped("cannot write \(file.path): \(error)")
        }
    }

    /// Removes the file, unless something has replaced it since it was written.
    func remove() {
        guard (try? Data(contentsOf: file)) == contents else { return }
        try? FileManager.default.removeItem(at: file)
    }

    /// The Info.plist of `bundleID` as the lab built it (its Mac build's with `macBuild`), in the
    /// built world at `builtWorld`: what its device installed.
    static func hostInfoFile(_ bundleID: BundleID, macBuild: Bool, builtWorld: URL) -> URL {
        WorldLayout(root: builtWorld).url(WorldLayout.bundle(bundleID, macBuild: macBuild)).appending(path: AppBundle.Layout.infoPlist)
    }

    /// The folder the test bundle of `command` runs from, links resolved: a `NAME.xctest`'s own,
    /// or the build folder `swift test` runs its bundle from; nil for any other program, whose
    /// `Bundle.main` stays its own. Relative paths are `directory`'s.
    static func bundleFolder(of command: [String], in directory: URL) -> URL? {
        guard let program = command.first else { return nil }
        let name = URL(fileURLWithPath: program).lastPathComponent
        let arguments = Array(command.dropFirst())
        if name.hasSuffix(".xctest"), program.contains("/") {
            return path(program, in: directory).resolvingSymlinksInPath().deletingLastPathComponent()
        }
        if name == "swift", arguments.first == "test" { return buildFolder(swiftTest: Array(arguments.dropFirst()), in: directory) }
        if name == "swift-test" { return buildFolder(swiftTest: arguments, in: directory) }
        return nil
    }

    /// Where `swift test ARGUMENTS` run in `directory` finds its test bundle:
    /// `SCRATCH[/TRIPLE]/CONFIGURATION`, with the scratch folder `--scratch-path` (or
    /// `--build-path`), else `.build` in `--package-path` or `directory`; the configuration
    /// `-c`/`--configuration`, else debug.
    static func buildFolder(swiftTest arguments: [String], in directory: URL) -> URL {
        var package = directory
        var scratch: URL?
        var configuration = "debug"
        var triple: String?
        var rest = arguments[...]
        while let argument = rest.popFirst(), argument != "--" {
            let option = argument.prefix { $0 != "=" }
            let inline = option.count < argument.count ? String(argument.dropFirst(option.count + 1)) : nil
            func value() -> String? { inline ?? rest.popFirst() }
            switch option {
            case "--package-path": if let value = value() { package = path(value, in: directory) }
            case "--scratch-path", "--build-path": if let value = value() { scratch = path(value, in: directory) }
            case "-c", "--configuration": if let value = value() { configuration = value }
            case "--triple": triple = value()
            // -Xswiftc FLAG and the like: the flag is the compiler's, whatever it looks like.
            case _ where option.hasPrefix("-X") && inline == nil: _ = value()
            default: break
            }
        }
        let root = scratch ?? package.appending(path: ".build")
        let folder = triple.map { root.appending(path: $0) } ?? root
        return folder.appending(path: configuration).resolvingSymlinksInPath()
    }

    private static func path(_ text: String, in directory: URL) -> URL {
        (text.hasPrefix("/") ? URL(fileURLWithPath: text) : directory.appending(path: text)).standardizedFileURL
    }

    private static func isMarked(_ data: Data) -> Bool {
        (try? PlistValue.dictionary(fromPropertyList: data))?[mark] != nil
    }
}
