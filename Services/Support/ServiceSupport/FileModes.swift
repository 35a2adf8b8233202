import Foundation

/// What every KeychainLab process creates is its owner's alone: files 0600, folders 0700.
public enum FileModes {
    /// Sets the process's file-mode mask so that nothing it creates (databases, keys, logs,
    /// prompt logs, sockets) can be read by another user. Called first thing by every executable.
    public static func restrictToOwner() {
        umask(0o077)
    }
}
