import ArgumentParser
import Foundation

/// Prints `error: MESSAGE` on standard error and ends the command with `code`.
func fail(_ message: String, code: Int32 = 1) -> ExitCode {
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    return ExitCode(code)
}

/// Writes a line on standard output.
func say(_ line: String = "") {
    print(line)
}

/// Writes a line on standard error: hints that are not the command's output.
func warn(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
