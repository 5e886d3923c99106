import { verify, decode } from "jsonwebtoken";

const TOKEN_EXPIRY = 3600;

export async function validateToken(token: string): Promise<TokenPayload> {
  if (isExpired(token)) {
    throw new AuthError("expired");
  }
  return verify(token, SECRET) as TokenPayload;
}

export function isExpired(token: string): boolean {
  const { exp } = decode(token);
  return exp * 1000 < Date.now();
}
