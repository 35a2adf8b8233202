import ArgumentParser
import LabErrors

/// "Did you mean …?" for a mistyped subcommand (`kclab app cal`): the arguments are walked down
/// the command tree, and the first word that names no subcommand where one is expected is
/// compared with the names there.
enum CommandSuggestion {
    /// The suggestion for `arguments` (without the program's name), or nil.
    static func suggestion(for arguments: [String], root: any ParsableCommand.Type) -> String? {
        var command = root
        var path = ["kclab"]
        for word in arguments {
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty, !word.hasPrefix("-") else { return nil }
            if let next = subcommands.first(where: { name(of: $0) == word }) {
                command = next
                path.append(word)
                continue
            }
            let names = subcommands.map(name(of:))
            guard let best = Spelling.nearest(to: word, among: names) else {
                return "'\(word)' is not a subcommand of \(path.joined(separator: " ")): one of \(names.joined(separator: ", "))"
            }
            return "'\(word)' is not a subcommand of \(path.joined(separator: " ")); did you mean '\(path.joined(separator: " ")) \(best)'?"
        }
        return nil
    }

    private static func name(of command: any ParsableCommand.Type) -> String {
        command.configuration.commandName ?? String(describing: command).lowercased()
    }
}
