import Mustache

/// The overlap picture as SVG: ``OverlapLayout``'s coordinates rendered by swift-mustache from the
/// template `Templates/overlap.svg.mustache` (docs/style.md, "Pages for people"). Mustache escapes
/// every value, so no name from a world file is ever written into the SVG as markup, and the same
/// graph gives the same bytes: the layout holds integers and text only, in the graph's order.
public struct OverlapPicture: Hashable, Sendable {
    /// What is drawn where.
    public let layout: OverlapLayout

    /// The picture of `graph`.
    public init(_ graph: WorldGraph) {
        layout = OverlapLayout(graph)
    }

    /// The picture of a layout made or changed by hand.
    public init(layout: OverlapLayout) {
        self.layout = layout
    }

    /// The SVG document, UTF-8 text.
    public var svg: String {
        Self.template.render(layout)
    }

    /// The template. The package embeds the resource file in the code (`embedInCode`), so kclab
    /// needs no resource bundle beside it wherever it is installed.
    static let template: MustacheTemplate = {
        let text = String(decoding: PackageResources.overlap_svg_mustache, as: UTF8.self)
        // The module's own template, rendered by every test of the picture: a template that
        // does not parse is a defect of this module, not bad input.
        return try! MustacheTemplate(string: text)
    }()
}
