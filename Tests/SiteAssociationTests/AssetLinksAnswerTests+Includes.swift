import AssetLinks
import Testing

extension AssetLinksAnswerTests {
    /// Include files (5000): each read once, a broken one losing its own statements only, a loop
    /// (a self-include among them) ending the fetch budget, and the secure chain.
    static let includes: [Case] = [
        Case(
            name: "5001 an include",
            body: "[\(include("https://source.example/more.json"))]",
            files: ["https://source.example/more.json": "[\(web("https://target.example"))]"],
            ask: .check(creds, site("https://target.example")),
            outcome: .success,
            answer: yes
        ),
        Case(
            name: "5002 an include that is not JSON beside a good statement",
            body: "[\(include("https://source.example/bad.json")), \(app())]",
            files: ["https://source.example/bad.json": "NOT JSON"],
            ask: .check(links, android()),
            outcome: .fetchError,
            answer: yes,
            says: "not valid JSON"
        ),
        Case(
            name: "5003 a broken include loses its own statements",
            body: "[\(include("https://i.example/bad.json")), \(include("https://i.example/good.json"))]",
            files: ["https://i.example/bad.json": "[\(app("org.example.bad")), {BAD}]", "https://i.example/good.json": "[\(app())]"],
            ask: .check(links, android("org.example.bad")),
            outcome: .fetchError,
            answer: no,
            says: "not valid JSON"
        ),
        Case(
            name: "5003 and the good include still answers",
            body: "[\(include("https://i.example/bad.json")), \(include("https://i.example/good.json"))]",
            files: ["https://i.example/bad.json": "[\(app("org.example.bad")), {BAD}]", "https://i.example/good.json": "[\(app())]"],
            ask: .check(links, android()),
            outcome: .fetchError,
            answer: yes,
            says: "not valid JSON"
        ),
        Case(
            name: "5005 a loop of includes",
            body: "[\(include("https://source.example/a.json"))]",
            files: [
                "https://source.example/a.json": "[\(include("https://source.example/b.json")), \(app())]",
                "https://source.example/b.json": "[\(include("https://source.example/a.json"))]",
            ],
            ask: .check(links, android()),
            outcome: .fetchError,
            answer: yes,
            says: "Fetch budget exhausted"
        ),
        Case(
            name: "a self-include beside a good statement",
            body: "[\(app()), \(include("https://source.example/.well-known/assetlinks.json"))]",
            ask: .check(links, android()),
            outcome: .fetchError,
            answer: yes,
            says: "Fetch budget exhausted"
        ),
        Case(
            name: "a self-include lists each statement once",
            body: "[\(app()), \(include("https://SOURCE.example/.well-known/assetlinks.json"))]",
            ask: .list(nil),
            outcome: .fetchError,
            answer: 1,
            says: "self-include"
        ),
        Case(
            name: "5006 an https source includes http",
            body: "[\(include("http://i.example/x.json"))]",
            files: ["http://i.example/x.json": "[\(app())]"],
            ask: .list(links),
            outcome: .fetchError,
            answer: 0,
            says: "Insecure URL in fetch stack of secure asset"
        ),
        Case(
            name: "5008 an http source includes http",
            body: "[\(include("http://i.example/x.json"))]",
            source: "http://source.example",
            files: ["http://i.example/x.json": "[\(app())]"],
            ask: .check(links, android()),
            outcome: .success,
            answer: yes
        ),
    ]
}
