// AppIdentity's identifiers live in AppIdentifiers, a module with nothing but LabErrors beneath,
// so that the device protocol (linked into every app) can carry them typed; importing AppIdentity
// still brings them.
@_exported import AppIdentifiers
