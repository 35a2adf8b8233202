import Foundation
import KeychainLab
import Security
import Synchronization

/// Many threads at once making set, get and delete calls on their own accounts, as keychain-swift's
/// concurrency tests do: every call must give the answer it would give alone.
enum Stress {
    static func run(threads: Int, rounds: Int) -> [String] {
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            let keychain = Keychain(service: "stress")
            for round in 0..<rounds {
                let account = "thread-\(thread)-round-\(round)"
                let value = "value-\(thread)-\(round)"
                do {
                    try keychain.set(value, for: account)
                    let read = try keychain.string(for: account)
                    if read != value { failures.withLock { $0.append("\(account): read \(read ?? "nothing")") } }
                    try keychain.remove(account)
                    if try keychain.string(for: account) != nil { failures.withLock { $0.append("\(account): still there after remove") } }
                } catch {
                    failures.withLock { $0.append("\(account): \(error)") }
                }
            }
        }
        return failures.withLock { $0 }
    }
}
