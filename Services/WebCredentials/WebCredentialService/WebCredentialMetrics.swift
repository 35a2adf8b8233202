import Metrics
import ServiceMetrics
import WebCredentialAPI

/// webcredentiald's metrics: calls by function and status, their latency, prompts shown by kind
/// and the answers that came back.
enum WebCredentialMetrics {
    static func call(_ function: String, _ outcome: WebCredentialAPI.Outcome, consent: Consent?, duration: Duration) {
        Counter(label: "webcredential_calls_total", dimensions: [("function", function), ("status", "\(outcome.status)")]).increment()
        Metrics.Timer(label: "webcredential_call_duration_seconds", dimensions: [("function", function)]).record(duration)
        if let prompt = outcome.prompt {
            Counter(label: "webcredential_prompts_total", dimensions: [("kind", prompt.kind.rawValue)]).increment()
        }
        if let consent {
            Counter(label: "webcredential_prompt_answers_total", dimensions: [("answer", "\(consent.answer)")]).increment()
        }
    }
}
