// `import Security` on Linux: the SecItem API of KeychainLab under the name Apple's code uses.
// Build it on Linux only; on Apple platforms the system framework owns this name.
@_exported import KeychainLabSecurity
