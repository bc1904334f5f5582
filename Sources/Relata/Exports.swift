@_exported import RelataCore
@_exported import RelataSQLite
