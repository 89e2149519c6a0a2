/**
 * Certificates made at lab start, never stored in the repository: the Kubernetes API double's TLS
 * certificate (which kubeconfigs also trust as their CA) and client certificates for tests that need
 * credentials close to expiry. EC P-256 keeps generation in the low milliseconds.
 */
import { generate } from 'selfsigned';

export interface CertificateRequest {
  commonName: string;
  /** Defaults to one year after now. */
  notAfter?: Date;
  /** Subject alternative IP addresses; default `127.0.0.1`. */
  ips?: string[];
  /** Subject alternative DNS names; default `localhost`. */
  dns?: string[];
  /** Marks the certificate as a CA (key usage keyCertSign). */
  isCA?: boolean;
}

export interface Certificate {
  certPem: string;
  keyPem: string;
}

export async function generateCertificate(req: CertificateRequest): Promise<Certificate> {
  const ips = req.ips ?? ['127.0.0.1'];
  const dns = req.dns ?? ['localhost'];
  const isCA = req.isCA ?? false;
  // A minute in the past so a client whose clock is slightly behind still accepts it; earlier still
  // when the caller wants a certificate that has already expired.
  const notBefore = new Date(Math.min(Date.now() - 60_000, (req.notAfter?.getTime() ?? Infinity) - 3_600_000));
  const pems = await generate([{ name: 'commonName', value: req.commonName }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: notBefore,
    notAfterDate: req.notAfter ?? new Date(notBefore.getTime() + 365 * 24 * 3600 * 1000),
    extensions: [
      { name: 'basicConstraints', cA: isCA, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyCertSign: isCA, critical: true },
      { name: 'extKeyUsage', serverAuth: true, clientAuth: true },
      {
        name: 'subjectAltName',
        altNames: [...dns.map((value) => ({ type: 2 as const, value })), ...ips.map((ip) => ({ type: 7 as const, ip }))],
      },
    ],
  });
  return { certPem: pems.cert, keyPem: pems.private };
}
