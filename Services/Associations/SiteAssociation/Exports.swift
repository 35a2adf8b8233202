/// The positioned JSON reader is the association file's reader; its users see it through this module.
@_exported public import PositionedJSON
