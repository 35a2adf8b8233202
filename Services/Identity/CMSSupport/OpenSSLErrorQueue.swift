import COpenSSL

/// OpenSSL reports failures on a thread-local queue; this drains it into one readable line.
enum OpenSSLErrorQueue {
    /// Empties the queue and returns its entries, most specific last, joined with "; ".
    static func drain() -> String {
        var reasons: [String] = []
        while true {
            var data: UnsafePointer<CChar>?
            var flags: Int32 = 0
            let code = ERR_get_error_all(nil, nil, nil, &data, &flags)
            if code == 0 { break }
            var reason = ERR_reason_error_string(code).map { String(cString: $0) } ?? "error \(code)"
            if let data, flags & ERR_TXT_STRING != 0 {
                let detail = String(cString: data)
                if !detail.isEmpty { reason += " (\(detail))" }
            }
            reasons.append(reason)
        }
        return reasons.isEmpty ? "no reason given by OpenSSL" : reasons.joined(separator: "; ")
    }

    /// Forgets whatever an earlier call left behind, so the next drain reports only fresh errors.
    static func clear() {
        ERR_clear_error()
    }
}
