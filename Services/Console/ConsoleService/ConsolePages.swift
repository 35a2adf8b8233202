import Mustache
public import WorldGraph

/// What the console serves for a world: the World and Overlap pages, rendered by swift-mustache
/// from their view models and the templates in `Templates/` (embedded in the code, so the console
/// needs no resource folder beside it), the overlap picture's SVG bytes and the stylesheet.
///
/// Rendered once, when the console starts: the world a lab was built from does not change while
/// the lab runs, and a page that is already text costs nothing to serve.
public struct ConsolePages: Sendable {
    /// The World page's model.
    public let world: WorldPage
    /// The Overlap page's model.
    public let overlap: OverlapPage
    /// The World page.
    public let worldHTML: String
    /// The Overlap page.
    public let overlapHTML: String
    /// The picture, exactly ``OverlapPicture``'s bytes (`kclab world graph --svg` writes the same).
    public let overlapSVG: [UInt8]

    /// The pages of `graph`.
    public init(_ graph: WorldGraph) {
        let picture = OverlapPicture(graph)
        world = WorldPage(graph)
        overlap = OverlapPage(graph, picture: picture)
        worldHTML = Self.render(world, "world")
        overlapHTML = Self.render(overlap, "overlap")
        overlapSVG = Array(picture.svg.utf8)
    }

    /// The stylesheet of every page, `/console.css`.
    public static var stylesheet: [UInt8] { PackageResources.console_css }

    /// `model` rendered by the template `name`, inside the layout.
    static func render(_ model: Any, _ name: String) -> String {
        // Every name is one of the library's own.
        library.render(model, withTemplate: name) ?? ""
    }

    /// The templates: `layout` (the page around each, by Mustache's inheritance), `world`,
    /// `overlap`. The module's own templates, rendered by every test of the pages: one that does
    /// not parse is a defect of this module, not bad input.
    static let library: MustacheLibrary = {
        let templates = [
            "layout": PackageResources.layout_html_mustache,
            "world": PackageResources.world_html_mustache,
            "overlap": PackageResources.overlap_html_mustache,
        ]
        return MustacheLibrary(templates: templates.mapValues { try! MustacheTemplate(string: String(decoding: $0, as: UTF8.self)) })
    }()
}
