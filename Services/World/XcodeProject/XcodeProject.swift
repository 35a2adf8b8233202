public import Foundation
public import LabErrors

/// What KeychainLab reads of an Xcode project (`App.xcodeproj/project.pbxproj`): its targets,
/// each target's build settings per configuration, and the project's own settings, which
/// targets inherit.
public struct XcodeProject: Sendable {
    /// A target that builds a product.
    public struct Target: Sendable, Hashable {
        public var name: String
        /// `com.apple.product-type.application`, `…app-extension`, `…framework`…
        public var productType: String
        /// Build settings by configuration name (`Debug`, `Release`).
        public var settings: [String: [String: String]]
        /// The `.xcconfig` file each configuration is based on, relative to the project's folder.
        public var configurationFiles: [String: String]
        /// The settings of those files, by configuration name: beneath the target's own.
        public var baseSettings: [String: [String: String]]

        public init(
            name: String,
            productType: String,
            settings: [String: [String: String]],
            configurationFiles: [String: String] = [:],
            baseSettings: [String: [String: String]] = [:]
        ) {
            self.name = name
            self.productType = productType
            self.settings = settings
            self.configurationFiles = configurationFiles
            self.baseSettings = baseSettings
        }

        /// A target Xcode signs with entitlements and that can call the keychain: applications
        /// (login items included), app and ExtensionKit extensions, XPC services, App Clips, watch
        /// apps and their extensions, command-line and helper tools, system and driver extensions.
        public var isSignedWithEntitlements: Bool {
            Self.signedKinds.contains(productType) || productType.hasPrefix("com.apple.product-type.app-extension")
        }

        /// Why a target is not imported, for the import's notes.
        public var skipReason: String {
            if productType.hasPrefix("com.apple.product-type.bundle.unit-test") || productType.hasPrefix("com.apple.product-type.bundle.ui-testing") {
                return "a test bundle runs inside its test host, with the host's entitlements (kclab test gives it the host's identity)"
            }
            return "a framework, library or bundle runs inside the program that loads it, with that program's entitlements, not its own"
        }

        static let signedKinds: Set<String> = [
            "com.apple.product-type.application",
            "com.apple.product-type.application.watchapp",
            "com.apple.product-type.application.watchapp2",
            "com.apple.product-type.application.watchapp2-container",
            "com.apple.product-type.application.on-demand-install-capable",
            "com.apple.product-type.application.messages",
            "com.apple.product-type.extensionkit-extension",
            "com.apple.product-type.watchkit-extension",
            "com.apple.product-type.watchkit2-extension",
            "com.apple.product-type.tv-app-extension",
            "com.apple.product-type.xpc-service",
            "com.apple.product-type.tool",
            "com.apple.product-type.system-extension",
            "com.apple.product-type.driver-extension",
        ]
    }

    /// The project's name (the `.xcodeproj` folder's, without the extension).
    public var name: String
    /// The folder holding the `.xcodeproj`: `$(SRCROOT)`, where relative paths start.
    public var sourceRoot: URL
    public var targets: [Target]
    /// The project's build settings by configuration name, inherited by every target.
    public var settings: [String: [String: String]]
    /// The settings of the project's `.xcconfig` files, by configuration name: beneath its own.
    public var baseSettings: [String: [String: String]]
    /// What could not be read (an `.xcconfig` file missing from the checkout…), one sentence
    /// each, by configuration name.
    public var problems: [String: [String]]
    /// The configuration names, in the project's order.
    public var configurations: [String]

    /// Reads `PATH.xcodeproj/project.pbxproj` (or a `project.pbxproj` named directly, or the one
    /// `.xcodeproj` of a folder, as `xcodebuild` finds it).
    public init(contentsOf given: URL) throws(XcodeProjectError) {
        let url = try Self.project(in: given)
        let file = url.pathExtension == "xcodeproj" ? url.appending(path: "project.pbxproj") : url
        let folder = url.pathExtension == "xcodeproj" ? url : url.deletingLastPathComponent()
        let bytes: [UInt8]
        do {
            let handle = try FileHandle(forReadingFrom: file)
            defer { try? handle.close() }
            bytes = Array(try handle.read(upToCount: OpenStepPlistReader.maximumSize + 1) ?? Data())
        } catch {
            throw XcodeProjectError(.unreadable, "\(file.path) cannot be read: \(error.localizedDescription)")
        }
        try self.init(
            OpenStepPlistReader.read(bytes),
            name: folder.deletingPathExtension().lastPathComponent,
            sourceRoot: folder.deletingLastPathComponent()
        )
    }

    /// `url` itself, or for a folder that is not a project the one `.xcodeproj` in it: none, or
    /// several, is an error that names what to give.
    static func project(in url: URL) throws(XcodeProjectError) -> URL {
        var isFolder: ObjCBool = false
        guard url.pathExtension != "xcodeproj", FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue else {
            return url
        }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).filter { $0.hasSuffix(".xcodeproj") }.sorted()
        guard names.count == 1, let name = names.first else {
            let found = names.isEmpty ? "holds no .xcodeproj" : "holds \(names.count) projects (\(names.joined(separator: ", ")))"
            throw XcodeProjectError(.unreadable, "the folder \(url.path) \(found): give PATH.xcodeproj")
        }
        return url.appending(path: name)
    }

    /// The project described by `plist`, the contents of a `project.pbxproj`; the `.xcconfig`
    /// files its configurations name are read from beneath `sourceRoot` unless `readingFiles` is off.
    public init(_ plist: OpenStepValue, name: String, sourceRoot: URL, readingFiles: Bool = true) throws(XcodeProjectError) {
        guard let objects = plist.dictionary?["objects"]?.dictionary, let root = plist.dictionary?["rootObject"]?.string,
            let project = objects[root]?.dictionary
        else {
            throw XcodeProjectError(.shape, "not a project.pbxproj: no 'objects' with the 'rootObject'")
        }
        let graph = ObjectGraph(objects: objects)
        self.name = name
        self.sourceRoot = sourceRoot
        (settings, configurations) = try graph.configurations(project["buildConfigurationList"]?.string, of: "the project")
        var problems: [String: [String]] = [:]
        var read: [String: XCConfig] = [:]
        func base(_ files: [String: String]) -> [String: [String: String]] {
            guard readingFiles else { return [:] }
            var settings: [String: [String: String]] = [:]
            for (configuration, path) in files {
                let file = read[path] ?? XCConfig(contentsOf: path.hasPrefix("/") ? URL(fileURLWithPath: path) : sourceRoot.appending(path: path))
                read[path] = file
                for problem in file.problems.map({ "\(path): \($0)" }) where problems[configuration]?.contains(problem) != true {
                    problems[configuration, default: []].append(problem)
                }
                settings[configuration] = file.settings
            }
            return settings
        }
        baseSettings = base(graph.configurationFiles(project["buildConfigurationList"]?.string))
        targets = []
        for reference in project["targets"]?.array ?? [] {
            guard let id = reference.string, let target = objects[id]?.dictionary, target["isa"]?.string == "PBXNativeTarget" else {
                continue
            }
            let name = target["name"]?.string ?? id
            let (settings, _) = try graph.configurations(target["buildConfigurationList"]?.string, of: "target \(name)")
            let files = graph.configurationFiles(target["buildConfigurationList"]?.string)
            targets.append(
                Target(
                    name: name,
                    productType: target["productType"]?.string ?? "",
                    settings: settings,
                    configurationFiles: files,
                    baseSettings: base(files)
                )
            )
        }
        self.problems = problems
    }
}

/// The project file's objects by ID, and the few walks KeychainLab makes through them.
private struct ObjectGraph {
    let objects: [String: OpenStepValue]
    /// Each group member's group, to walk `<group>`-relative paths up to the project's folder.
    let parents: [String: String]

    init(objects: [String: OpenStepValue]) {
        self.objects = objects
        var parents: [String: String] = [:]
        for (id, object) in objects {
            guard let group = object.dictionary, let isa = group["isa"]?.string, isa.hasSuffix("Group") else { continue }
            for child in group["children"]?.array ?? [] {
                if let child = child.string { parents[child] = id }
            }
        }
        self.parents = parents
    }

    /// The build settings of each configuration of a configuration list, and the names in order.
    func configurations(_ list: String?, of owner: String) throws(XcodeProjectError) -> ([String: [String: String]], [String]) {
        guard let list, let configurations = objects[list]?.dictionary?["buildConfigurations"]?.array else {
            throw XcodeProjectError(.shape, "\(owner) has no build configuration list")
        }
        var settings: [String: [String: String]] = [:]
        var names: [String] = []
        for reference in configurations {
            guard let id = reference.string, let configuration = objects[id]?.dictionary, let name = configuration["name"]?.string else { continue }
            names.append(name)
            settings[name] = (configuration["buildSettings"]?.dictionary ?? [:]).compactMapValues(Self.text)
        }
        return (settings, names)
    }

    /// The `.xcconfig` file each configuration is based on, by configuration name, as a path
    /// from the project's folder.
    func configurationFiles(_ list: String?) -> [String: String] {
        var files: [String: String] = [:]
        for reference in list.flatMap({ objects[$0]?.dictionary?["buildConfigurations"]?.array }) ?? [] {
            guard let id = reference.string, let configuration = objects[id]?.dictionary, let name = configuration["name"]?.string,
                let file = configuration["baseConfigurationReference"]?.string, let path = path(of: file)
            else { continue }
            files[name] = path
        }
        return files
    }

    /// A file reference's path from the project's folder: its own path, under its groups' paths
    /// while it is `<group>`-relative (at most 128 groups up); nil for a file elsewhere (a
    /// built product, an SDK).
    func path(of file: String) -> String? {
        var components: [String] = []
        var current: String? = file
        for _ in 0..<128 {
            guard let id = current, let object = objects[id]?.dictionary else { break }
            if let path = object["path"]?.string { components.append(path) }
            switch object["sourceTree"]?.string {
            case "<group>": current = parents[id]
            case "SOURCE_ROOT", "<absolute>", nil: current = nil
            default: return nil
            }
            if current == nil { break }
        }
        return components.isEmpty ? nil : components.reversed().joined(separator: "/")
    }

    /// A setting's text: a string, or a list joined by spaces as Xcode joins it.
    static func text(_ value: OpenStepValue) -> String? {
        switch value {
        case .string(let text): text
        case .array(let items): items.compactMap(\.string).joined(separator: " ")
        case .dictionary: nil
        }
    }
}
