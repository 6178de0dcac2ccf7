export * from './generated/ws-types.ts';
export { payloadSchemas, envelopeSchema, commonSchema } from './generated/ws-schemas.ts';
export { makeFrame, PROTOCOL_VERSION, type Frame, type FrameOptions } from './frame.ts';
export { FrameParser, createAjv, jsonDepth, type FrameLimits, type ParseResult } from './frame-parser.ts';
export { AckTracker, type AckTrackerOptions } from './ack-tracker.ts';
export { SeenFrames } from './seen-frames.ts';
export { ProtocolError, PROTOCOL_ERROR_CODES, type ProtocolErrorCode } from './errors.ts';
