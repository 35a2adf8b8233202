import ConsoleService
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import WorldFile
import WorldGraph

/// `/overlap.svg` is the overlap picture, byte for byte, and the Overlap page shows it.
@Suite struct OverlapPageTests {
    @Test func theSVGRouteServesOverlapPicturesBytes() async throws {
        let expected = Array(OverlapPicture(WorldGraph(try Fixtures.demo())).svg.utf8)
        let (status, type, bytes) = try await Fixtures.withConsole { client in
            let response = try await client.execute(uri: "/overlap.svg", method: .get, headers: [.cookie: Fixtures.cookie])
            return (response.status, response.headers[.contentType], Array(response.body.readableBytesView))
        }
        #expect(status == .ok)
        #expect(type == "image/svg+xml")
        #expect(bytes == expected, "the same world gives the same bytes as kclab world graph --svg")
    }

    @Test func theOverlapPageEmbedsThePictureAndNamesTheRegions() async throws {
        let graph = WorldGraph(try Fixtures.demo())
        let layout = OverlapLayout(graph)
        let html = try await Fixtures.withConsole { client in
            let response = try await client.execute(uri: "/overlap", method: .get, headers: [.cookie: Fixtures.cookie])
            #expect(response.status == .ok)
            return String(buffer: response.body)
        }
        #expect(html.contains(#"<img src="/overlap.svg" width="\#(layout.width)" height="\#(layout.height)""#), "\(html)")
        #expect(
            html.contains(
                #"<li class="region" data-label="B" data-group="ABCDE12345.com.example.SharedItems"><span class="badge">B</span> <code>ABCDE12345.com.example.SharedItems</code>: App One (com.example.AppOne, iOS), App Two (com.example.AppTwo, iOS)</li>"#
            )
        )
        #expect(html.contains("<li>Snooper (com.other.Snooper, iOS)</li>") && html.contains("<li>Thief (com.other.Thief, iOS)</li>"))
        #expect(html.contains(#"<a href="/overlap" aria-current="page">Overlap</a>"#))

        let page = OverlapPage(graph, picture: OverlapPicture(graph))
        #expect(page.regions.map(\.label) == ["A", "B", "C", "D"] && page.hasAlone)
    }

    @Test func theStylesheetIsTheConsolesOwn() async throws {
        let (status, type, text) = try await Fixtures.withConsole { client in
            let response = try await client.execute(uri: "/console.css", method: .get, headers: [.cookie: Fixtures.cookie])
            return (response.status, response.headers[.contentType], String(buffer: response.body))
        }
        #expect(status == .ok && type == "text/css; charset=utf-8")
        #expect(!text.contains("@import") && !text.contains("url("), "nothing fetched from elsewhere")
    }
}
