import ArgumentParser

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
            let ranked = names.map { ($0, distance($0, word)) }.sorted { $0.1 < $1.1 }
            guard let best = ranked.first, best.1 <= max(2, word.count / 3) else {
                return "'\(word)' is not a subcommand of \(path.joined(separator: " ")): one of \(names.joined(separator: ", "))"
            }
            return "'\(word)' is not a subcommand of \(path.joined(separator: " ")); did you mean '\(path.joined(separator: " ")) \(best.0)'?"
        }
        return nil
    }

    private static func name(of command: any ParsableCommand.Type) -> String {
        command.configuration.commandName ?? String(describing: command).lowercased()
    }

    /// The Levenshtein distance between two short words.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty else { return b.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(b.count, 1) where j <= b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
