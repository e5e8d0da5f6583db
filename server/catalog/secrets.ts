/**
 * Encryption at rest for what catalog.json must not show in clear: integration connection
 * parameters (passwords). AES-256-GCM with a key derived from AUTH_SECRET when it is set, else a
 * random key kept in `DATA_DIR/keys/secrets.key` (mode 0600, created on first use). Each sealed
 * value names its key (`kid`), so setting AUTH_SECRET later still opens what the key file sealed
 * (and the next write re-seals it with AUTH_SECRET's key).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DIR_MODE, FILE_MODE, ensureDir } from '../engine/atomic';

export interface Sealed {
  v: 1;
  kid: 'auth_secret' | 'keyfile';
  iv: string;
  tag: string;
  data: string;
}

export const isSealed = (x: unknown): x is Sealed =>
  !!x &&
  typeof x === 'object' &&
  (x as Sealed).v === 1 &&
  typeof (x as Sealed).data === 'string' &&
  typeof (x as Sealed).iv === 'string';

export class SecretBox {
  private readonly keys = new Map<Sealed['kid'], Buffer>();
  private readonly primary: Sealed['kid'];

  constructor(
    private readonly keyFile: string,
    authSecret: string | undefined,
  ) {
    if (authSecret) {
      this.keys.set(
        'auth_secret',
        Buffer.from(
          crypto.hkdfSync('sha256', authSecret, 'sql-model-playground', 'integration secrets', 32),
        ),
      );
      this.primary = 'auth_secret';
    } else {
      this.primary = 'keyfile';
    }
    if (fs.existsSync(keyFile)) this.keys.set('keyfile', this.readKeyFile());
  }

  private readKeyFile(): Buffer {
    const key = Buffer.from(fs.readFileSync(this.keyFile, 'utf8').trim(), 'base64');
    if (key.length !== 32) throw new Error(`${this.keyFile} is damaged: expected a 32-byte key`);
    return key;
  }

  /** The key of `kid`; the key file is created only to seal (`create`), never to open. */
  private key(kid: Sealed['kid'], create = false): Buffer | undefined {
    if (create && kid === 'keyfile' && !this.keys.has('keyfile')) {
      ensureDir(path.dirname(this.keyFile));
      fs.chmodSync(path.dirname(this.keyFile), DIR_MODE);
      // `wx`: never overwrite a key another start created meanwhile.
      try {
        fs.writeFileSync(this.keyFile, crypto.randomBytes(32).toString('base64'), {
          mode: FILE_MODE,
          flag: 'wx',
        });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      this.keys.set('keyfile', this.readKeyFile());
    }
    return this.keys.get(kid);
  }

  seal(value: unknown): Sealed {
    const key = this.key(this.primary, true)!;
    const iv = crypto.randomBytes(12);
    const c = crypto.createCipheriv('aes-256-gcm', key, iv);
    const data = Buffer.concat([c.update(JSON.stringify(value), 'utf8'), c.final()]);
    return {
      v: 1,
      kid: this.primary,
      iv: iv.toString('base64'),
      tag: c.getAuthTag().toString('base64'),
      data: data.toString('base64'),
    };
  }

  /** The sealed value; throws a message saying which key is missing or wrong. */
  open(s: Sealed): unknown {
    const key = this.key(s.kid);
    if (!key) {
      throw new Error(
        s.kid === 'auth_secret'
          ? 'it was encrypted with AUTH_SECRET, which is not set now'
          : `its key file ${this.keyFile} is missing`,
      );
    }
    try {
      const d = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(s.iv, 'base64'));
      d.setAuthTag(Buffer.from(s.tag, 'base64'));
      const text = Buffer.concat([d.update(Buffer.from(s.data, 'base64')), d.final()]);
      return JSON.parse(text.toString('utf8'));
    } catch {
      throw new Error(
        s.kid === 'auth_secret'
          ? 'it was encrypted with a different AUTH_SECRET'
          : `it does not open with the key in ${this.keyFile}`,
      );
    }
  }
}
