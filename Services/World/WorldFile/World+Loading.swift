public import Foundation
import Yams

extension World {
    /// The top-level keys of a world file.
    static let keys = ["name", "teams", "apps", "devices", "websites"]

    /// The largest world file read: the demo world is 7 KB; a file this large is a mistake.
    public static let maximumFileSize = 4 << 20

    /// Reads and validates a world file.
    public static func load(contentsOf url: URL) throws(WorldError) -> World {
        let text: String
        do {
            let size = (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
            guard size <= maximumFileSize else {
                throw WorldError(
                    .unreadable,
                    file: url.path,
                    line: 0,
                    column: 0,
                    key: "",
                    message: "the world file is \(size) bytes, more than the \(maximumFileSize) a world file may have"
                )
            }
            text = try String(contentsOf: url, encoding: .utf8)
        } catch let error as WorldError {
            throw error
        } catch {
            throw WorldError(
                .unreadable,
                file: url.path,
                line: 0,
                column: 0,
                key: "",
                message: "cannot read the world file: \(error.localizedDescription)"
            )
        }
        return try parse(
            yaml: text,
            file: url.path,
            defaultName: url.deletingPathExtension().lastPathComponent,
            baseDirectory: url.deletingLastPathComponent()
        )
    }

    /// Parses and validates world YAML; `file` names it in errors, and relative paths in it
    /// (executables, AASA files) are resolved against `baseDirectory`.
    public static func parse(
        yaml text: String,
        file: String,
        defaultName: String = "world",
        baseDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    ) throws(WorldError) -> World {
        let root: Node
        do throws(YAMLExpansionBudget.Exceeded) {
            try YAMLExpansionBudget.check(text)
        } catch {
            throw WorldError(.syntax, file: file, line: error.line, column: error.column, key: "", message: error.message)
        }
        do {
            guard let node = try Yams.compose(yaml: text) else {
                throw WorldError(.syntax, file: file, line: 1, column: 1, key: "", message: "the world file is empty")
            }
            root = node
        } catch let error as WorldError {
            throw error
        } catch {
            throw syntaxError(error, file: file)
        }
        let context = LoadingContext(baseDirectory: baseDirectory)
        let top = try YAMLValue(node: root, path: "", file: file).mapping(known: keys)
        // Every entry is read even after one fails, so that one run names every error.
        var errors: [WorldError] = []
        var world = World(
            name: try top.optional("name")?.string() ?? defaultName,
            teams: list(top, "teams", &errors) { value throws(WorldError) in try Team(yaml: value) },
            apps: list(top, "apps", &errors) { value throws(WorldError) in try App(yaml: value, context: context) },
            devices: list(top, "devices", &errors) { value throws(WorldError) in try Device(yaml: value) },
            websites: list(top, "websites", &errors) { value throws(WorldError) in try Website(yaml: value, context: context) }
        )
        // References are checked only between entries that could be read.
        if errors.isEmpty { errors = world.validate(top) }
        if let error = WorldError.combined(errors) { throw error }
        world.resolveDefaults()
        world.addBrowser()
        return world
    }

    private static func list<T>(
        _ mapping: YAMLMapping,
        _ key: String,
        _ errors: inout [WorldError],
        _ parse: (YAMLValue) throws(WorldError) -> T
    ) -> [T] {
        guard let value = mapping.optional(key) else { return [] }
        var result: [T] = []
        do {
            for element in try value.sequence() {
                do {
                    result.append(try parse(element))
                } catch {
                    errors.append(error)
                }
            }
        } catch {
            errors.append(error)
        }
        return result
    }

    /// Turns a Yams error into one naming the line and column.
    private static func syntaxError(_ error: any Error, file: String) -> WorldError {
        guard let yamlError = error as? YamlError else {
            return WorldError(.syntax, file: file, line: 0, column: 0, key: "", message: "\(error)")
        }
        switch yamlError {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _), .composer(_, let problem, let mark, _):
            return WorldError(.syntax, file: file, line: mark.line, column: mark.column, key: "", message: "invalid YAML: \(problem)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            return WorldError(
                .syntax,
                file: file,
                line: context.mark.line,
                column: context.mark.column,
                key: "",
                message: "duplicate key \(duplicates.map { "'\($0)'" }.joined(separator: ", ")) in a mapping"
            )
        default:
            return WorldError(.syntax, file: file, line: 0, column: 0, key: "", message: "invalid YAML: \(yamlError)")
        }
    }
}

/// What parsing needs beyond the YAML itself.
struct LoadingContext {
    /// The folder relative paths are resolved against.
    let baseDirectory: URL

    func resolve(_ path: String) -> URL {
        path.hasPrefix("/") ? URL(fileURLWithPath: path) : baseDirectory.appending(path: path)
    }
}
