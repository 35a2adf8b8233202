import ArgumentParser
import Foundation
import WorldFile
import WorldGraph

extension WorldCommand {
    /// `kclab world graph WORLD [--svg FILE] [--text]`
    struct Graph: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Draw a world's access groups: each app's groups in Apple's order, and the groups apps share.",
            discussion: """
                Reads a world file (the demo's, one kclab world import wrote from an Xcode project or a \
                profile, your own) and forms each app's access groups as a device does from the signature \
                kclab world build gives it: keychain-access-groups, then the application identifier, then \
                app groups, a row per platform build. The first group is the default, where SecItemAdd puts \
                an item whose call names no group. A group two or more apps hold is a region of overlap, \
                named by the group; another team's app is drawn in its own band, outside the regions it \
                does not hold. An app whose entitlements its profile does not allow is refused at install \
                and holds no group. --svg writes the picture (the same world gives the same bytes); --text, \
                the default without --svg, prints the same for a terminal. See docs/world.md.
                """
        )

        @Argument(help: "The world file (YAML; see docs/world.md).")
        var world: String

        @Option(name: .long, help: ArgumentHelp("Write the picture as SVG to this file; - writes it to standard output.", valueName: "file"))
        var svg: String?

        @Flag(name: .long, help: "Print each app's groups and the shared groups as text (the default without --svg).")
        var text = false

        func validate() throws {
            if svg?.isEmpty == true { throw ValidationError("--svg needs a file name, or - for standard output") }
            if svg == "-", text { throw ValidationError("--svg - and --text both write to standard output: give one of them") }
        }

        func run() throws {
            let loaded: World
            do {
                loaded = try World.load(contentsOf: URL(fileURLWithPath: world))
            } catch {
                let count = error.all.count
                throw fail(error.description + (count > 1 ? "\n\(count) errors" : ""))
            }
            let graph = WorldGraph(loaded)
            if let svg {
                let picture = Data(OverlapPicture(graph).svg.utf8)
                if svg == "-" {
                    FileHandle.standardOutput.write(picture)
                } else {
                    do {
                        try picture.write(to: URL(fileURLWithPath: svg), options: .atomic)
                    } catch {
                        throw fail("cannot write \(svg): \(error.localizedDescription)")
                    }
                    let summary = "wrote \(svg): \(graph.builds.count) app builds of \(graph.teams.count) teams, \(graph.regions.count) groups shared"
                    if text { warn(summary) } else { say(summary) }
                }
            }
            if text || svg == nil {
                FileHandle.standardOutput.write(Data(graph.text.utf8))
            }
        }
    }
}
