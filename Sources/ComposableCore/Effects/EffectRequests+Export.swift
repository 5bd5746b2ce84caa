// The requests effects ask of workers, and their replies, are plain data of
// their own module, so that the wire protocol carries them without depending
// on the architecture. A feature that imports ComposableCore sees them as
// part of it, as TCA's users see its dependencies' types.
@_exported import EffectRequests
