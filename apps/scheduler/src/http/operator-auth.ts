import type { FastifyRequest } from 'fastify';
import { ApiError } from '../errors.ts';
import { bearerToken, hashToken, sameDigest } from '../auth/token-hash.ts';

/**
 * A preHandler for `/api/v1`: when operator tokens are configured, require one of them. Tokens are held as
 * digests and compared in constant time.
 */
export function operatorAuth(tokens: readonly string[]): ((request: FastifyRequest) => Promise<void>) | undefined {
  if (tokens.length === 0) return undefined;
  const digests = tokens.map(hashToken);
  return async (request) => {
    const token = bearerToken(request.headers.authorization);
    if (!token) throw new ApiError('E.AUTH.MISSING_TOKEN', 'operator token required: Authorization: Bearer <token>');
    const digest = hashToken(token);
    let ok = false;
    for (const d of digests) ok = sameDigest(d, digest) || ok;
    if (!ok) throw new ApiError('E.AUTH.INVALID_TOKEN', 'operator token is not valid');
  };
}
