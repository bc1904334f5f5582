@_exported import RelataCore
