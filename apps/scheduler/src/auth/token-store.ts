import type { Kysely } from '@drover/store';
import type { Database } from '@drover/store';
import { hashToken, sameDigest } from './token-hash.ts';

/** Kind of token: what it lets its holder do. */
export type TokenKind = 'worker' | 'operator' | 'pairing';

/** Who a verified token belongs to. */
export interface TokenIdentity {
  tokenId: string;
  tenant: string;
  kind: TokenKind;
}

/** Tokens stored hashed in the `tokens` table; never logged, compared by digest in constant time. */
export class TokenStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** Make sure each token exists (hashed) for `tenant`; used to load tokens from configuration. */
  async ensure(kind: TokenKind, tokens: readonly string[], tenant: string, label = 'config'): Promise<void> {
    for (const token of tokens) {
      await this.db
        .insertInto('tokens')
        .values({ id: crypto.randomUUID(), tenant, kind, hash: hashToken(token), label })
        .onConflict((oc) => oc.column('hash').doNothing())
        .execute();
    }
  }

  /** The identity behind `token` when it is of `kind`, not revoked and not expired; otherwise undefined. */
  async verify(kind: TokenKind, token: string): Promise<TokenIdentity | undefined> {
    const hash = hashToken(token);
    const row = await this.db
      .selectFrom('tokens')
      .select(['id', 'tenant', 'kind', 'hash', 'revoked_at', 'expires_at'])
      .where('hash', '=', hash)
      .executeTakeFirst();
    if (!row || !sameDigest(row.hash, hash) || row.kind !== kind || row.revoked_at) return undefined;
    if (row.expires_at && new Date(row.expires_at).getTime() <= Date.now()) return undefined;
    return { tokenId: row.id, tenant: row.tenant, kind: row.kind as TokenKind };
  }
}
