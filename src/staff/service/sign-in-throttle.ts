import ipaddr from 'ipaddr.js';
import type { Executor } from '../../platform/db/database.js';
import { sha256 } from '../../platform/digest.js';
import { SIGN_IN_THROTTLES, signInWaits } from '../staff.rules.js';
import * as store from '../staff.store.js';

const WAITS = {
  email_from_address: signInWaits(SIGN_IN_THROTTLES.email_from_address),
  email: signInWaits(SIGN_IN_THROTTLES.email),
};

/** A client address as the throttle counts it: IPv6 by its /64 (one holder's network), IPv4-mapped as IPv4. */
export function addressKey(ip: string | null): string {
  if (!ip || !ipaddr.isValid(ip)) return 'unknown';
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  return `${(address as ipaddr.IPv6).parts
    .slice(0, 4)
    .map((p) => p.toString(16))
    .join(':')}::/64`;
}

export type SignInReservation =
  { reserved: true; keys: string[]; failuresAtEmail: number } | { reserved: false; waitSeconds: number };

/**
 * Reserves a sign-in attempt before any password hash is computed: at the email from this address, then at the
 * email from anywhere (SIGN_IN_THROTTLES). The keys are the email typed, not an account, so an unknown email waits
 * exactly as a known one does and the answers tell neither apart. While a wait lasts nothing is reserved or written.
 */
export async function reserveSignIn(
  db: Executor,
  email: string,
  remoteIp: string | null,
  now: Date,
): Promise<SignInReservation> {
  const fromAddress = sha256(`email:${email}\naddress:${addressKey(remoteIp)}`);
  const fromAnywhere = sha256(`email:${email}`);
  const keys = [fromAddress, fromAnywhere];
  if ((await store.reserveSignInAttempt(db, fromAddress, now, WAITS.email_from_address)) !== undefined) {
    const failuresAtEmail = await store.reserveSignInAttempt(db, fromAnywhere, now, WAITS.email);
    if (failuresAtEmail !== undefined) return { reserved: true, keys, failuresAtEmail };
  }
  const notBefore = (await store.signInNotBefore(db, keys)) ?? now;
  return {
    reserved: false,
    waitSeconds: Math.max(1, Math.ceil((notBefore.getTime() - now.getTime()) / 1000)),
  };
}
