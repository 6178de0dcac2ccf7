/** Every protocol error code, with the one-line meaning that docs/errors.md repeats. */
export const PROTOCOL_ERROR_CODES = {
  'E.WS.BAD_JSON': 'The frame is not valid JSON text.',
  'E.WS.FRAME_TOO_LARGE': 'The frame is larger than the negotiated max_payload_bytes.',
  'E.WS.TOO_DEEP': 'The frame nests objects/arrays deeper than the depth cap.',
  'E.WS.ENVELOPE_INVALID': 'The envelope does not match schema/ws/envelope.schema.json.',
  'E.WS.UNKNOWN_TYPE': 'The envelope `type` names no known message.',
  'E.WS.PAYLOAD_INVALID': "The payload does not match its message's schema.",
  'E.WS.UNEXPECTED_MESSAGE': 'The message is valid but not allowed in the session state (e.g. register before handshake).',
  'E.WS.UNSUPPORTED_PROTOCOL': 'No protocol version in common; the socket is closed.',
  'E.WS.TENANT_MISMATCH': "The frame's tenant is not the tenant of the session's token.",
  'E.WS.TOO_MANY_ERRORS': 'Too many invalid frames on one socket; the socket is closed.',
  'E.WS.ACK_TIMEOUT': 'A frame that requested an ACK was not acknowledged after every resend.',
  'E.AUTH.MISSING_TOKEN': 'No `Authorization: Bearer` token was presented.',
  'E.AUTH.INVALID_TOKEN': 'The token is unknown, revoked, expired or of the wrong kind.',
} as const;

/** A protocol error code. */
export type ProtocolErrorCode = keyof typeof PROTOCOL_ERROR_CODES;

/** An error in the wire protocol, carried to the peer as an `error` frame. */
export class ProtocolError extends Error {
  override readonly name = 'ProtocolError';
  constructor(
    readonly code: ProtocolErrorCode,
    message: string,
    readonly details: { pointer?: string; for?: string } = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
