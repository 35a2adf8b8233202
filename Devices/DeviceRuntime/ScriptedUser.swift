import DeviceProtocol
import Foundation
import Logging
import UserAnswers
import WebCredentialAPI
import WorldFile

/// The person holding the device: answers each consent prompt from the world file's script (or
/// what `kclab device answer` set), one prompt at a time as iOS shows one alert at a time, and
/// writes every prompt with its answer to the device's prompt log.
actor ScriptedUser {
    private var answers: [ScriptedAnswer]
    private var defaultAnswer: ScriptedAnswer
    private let log: URL
    private let device: String
    private let logger: Logger
    /// Whether a prompt is on screen, and who waits for it to go.
    private var showing = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(_ script: WorldFile.Device.ScriptedUser, device: String, log: URL, logger: Logger) {
        answers = script.answers
        defaultAnswer = script.defaultAnswer
        self.device = device
        self.log = log
        self.logger = logger
    }

    /// Replaces the queued answers (and the default, when given); returns the script in text form.
    func script(_ answers: [ScriptedAnswer], defaultAnswer: ScriptedAnswer?) -> [String] {
        self.answers = answers
        if let defaultAnswer { self.defaultAnswer = defaultAnswer }
        return describe()
    }

    /// The script now: the queued answers, then `default: …`.
    func describe() -> [String] {
        answers.map(\.description) + ["default: \(defaultAnswer)"]
    }

    /// Shows `prompt` for `app`, waits for its turn and the user's thinking time, and answers.
    func answer(_ prompt: Prompt, app bundleID: String) async -> PromptAnswer {
        while showing {
            await withCheckedContinuation { waiting.append($0) }
        }
        showing = true
        let scripted = answers.isEmpty ? defaultAnswer : answers.removeFirst()
        if scripted.delayMilliseconds > 0 {
            try? await Task.sleep(for: .milliseconds(scripted.delayMilliseconds))
        }
        record(prompt, app: bundleID, scripted)
        showing = false
        if !waiting.isEmpty { waiting.removeFirst().resume() }
        return scripted.answer
    }

    private func record(_ prompt: Prompt, app bundleID: String, _ scripted: ScriptedAnswer) {
        let entry = PromptRecord(
            time: Date(),
            device: device,
            app: bundleID,
            appName: prompt.app,
            kind: prompt.kind.rawValue,
            domain: prompt.domain,
            title: prompt.title,
            messageKey: prompt.messageKey,
            buttons: [prompt.approveButton, prompt.cancelButton].compactMap(\.self),
            choices: prompt.choices,
            answer: scripted.answer.description,
            waitedMilliseconds: scripted.delayMilliseconds
        )
        logger.info(
            "prompt shown",
            metadata: [
                "app.bundle": "\(bundleID)", "prompt.kind": "\(prompt.kind.rawValue)", "prompt.title": "\(prompt.title)",
                "answer": "\(scripted.answer)",
            ]
        )
        do {
            try PromptLog.append(entry, to: log)
        } catch {
            logger.error("cannot write the prompt log", metadata: ["file": "\(log.path)", "error": "\(error)"])
        }
    }
}
