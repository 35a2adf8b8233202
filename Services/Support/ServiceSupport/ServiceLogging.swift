import Foundation
public import Logging

/// How every KeychainLab process logs: to standard error, at the level `LOG_LEVEL` names
/// (trace … critical; info by default).
public enum ServiceLogging {
    /// Sets up logging for the process and returns its logger.
    public static func bootstrap(label: String) -> Logger {
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        var logger = Logger(label: label)
        logger.logLevel = Logger.Level(rawValue: ProcessInfo.processInfo.environment["LOG_LEVEL"] ?? "info") ?? .info
        return logger
    }
}
