import { describe, expect, it } from 'vitest';
import { ibanValid, isRedactionMarker, luhnValid, redactText, redactValue, sensitiveFieldKind } from './redact.js';

// Luhn-valid numbers of every length and network a customer might paste: Visa 13/16/19, Mastercard
// (both ranges), Amex, Discover, Diners 14/16, JCB, UnionPay, Maestro.
const CARDS = [
  '4242424242424242',
  '4111111111111111',
  '4000056655665556',
  '5555555555554444',
  '5105105105105100',
  '2223003122003222',
  '378282246310005',
  '371449635398431',
  '6011111111111117',
  '6011000990139424',
  '3056930009020004',
  '36227206271667',
  '3566002020360505',
  '6200000000000005',
  '4222222222222',
  '4000000000000000006',
  '6759649826438453',
];

const groupsOf4 = (digits: string, sep: string) => digits.replace(/(\d{4})(?=\d)/g, `$1${sep}`);

/** One corpus entry: the text, the values that must not survive, and ordinary values that must. */
interface Case {
  text: string;
  secrets: string[];
  keep?: string[];
}

const cardCases: Case[] = CARDS.flatMap((card): Case[] => [
  { text: `Please charge my card ${card} for order #W2378156.`, secrets: [card], keep: ['#W2378156'] },
  { text: `card number: ${groupsOf4(card, ' ')}, amount $1,250.00`, secrets: [card], keep: ['$1,250.00'] },
  { text: `It's ${groupsOf4(card, '-')} and it expires 05/2027`, secrets: [card], keep: ['05/2027'] },
  {
    text: JSON.stringify({ order_id: '#W4776164', note: `customer paid with ${groupsOf4(card, ' ')}`, amount: 49.99, date: '2024-05-15' }),
    secrets: [card],
    keep: ['#W4776164', '49.99', '2024-05-15'],
  },
]);

const cvvCases: Case[] = [
  { text: 'cvv 123', secrets: ['123'] },
  { text: 'My CVV is 737 and the order is 7731', secrets: ['737'], keep: ['7731'] },
  { text: 'CVC: 4821', secrets: ['4821'] },
  { text: 'the security code is 552, zip code 19122', secrets: ['552'], keep: ['19122'] },
  { text: '{"card": {"brand": "visa", "last_four": "4242", "cvv": "839"}}', secrets: ['839'], keep: ['"last_four": "4242"'] },
  { text: "{'cvc': '913', 'exp': '12/26'}", secrets: ['913'], keep: ['12/26'] },
  { text: 'card verification value: 6021', secrets: ['6021'] },
  { text: 'CVV2=318; total 49.99', secrets: ['318'], keep: ['49.99'] },
  { text: 'cvv "745"', secrets: ['745'] },
  { text: 'the 3-digit code on the back is 264', secrets: ['264'] },
];

const otpCases: Case[] = [
  { text: 'Your verification code is 482913', secrets: ['482913'] },
  { text: 'OTP: 771920', secrets: ['771920'] },
  { text: 'my code is 336712, order #W2378156', secrets: ['336712'], keep: ['#W2378156'] },
  { text: 'The code I got was 640211', secrets: ['640211'] },
  { text: 'one-time passcode 2209', secrets: ['2209'] },
  { text: 'passcode: 90817', secrets: ['90817'] },
  { text: 'code 551-203 from the text message', secrets: ['551-203'] },
  { text: '{"customer_id": "cus_1001", "otp": "118244"}', secrets: ['118244'], keep: ['cus_1001'] },
  { text: '{"code": "904412"}', secrets: ['904412'] },
  { text: 'verify_otp(code=559301)', secrets: ['559301'] },
  { text: 'Here is the one time code: 7Q4K9Z', secrets: ['7Q4K9Z'] },
  { text: 'the 2FA code they sent is 300118 for reservation Q69X3R', secrets: ['300118'], keep: ['Q69X3R'] },
];

const passwordCases: Case[] = [
  { text: 'password: hunter2!', secrets: ['hunter2!'] },
  { text: 'my password is Tr0ub4dor&3.', secrets: ['Tr0ub4dor&3'] },
  { text: 'pwd=S3cure#Pass&user=ana', secrets: ['S3cure#Pass'] },
  { text: '{"username": "ana", "password": "correct horse battery staple"}', secrets: ['correct horse battery staple'], keep: ['"ana"'] },
  { text: 'passphrase: violet tiger lamp moss. Thanks!', secrets: ['violet tiger lamp moss'] },
  { text: 'my PIN is 7391', secrets: ['7391'] },
  { text: 'DATABASE_URL=postgres://app:Xy9pw7Qa@db.internal:5432/baton', secrets: ['Xy9pw7Qa'], keep: ['db.internal:5432'] },
  { text: "Password 'blue-Moon_77' please reset it", secrets: ['blue-Moon_77'] },
];

const tokenCases: Case[] = [
  { text: 'use sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z', secrets: ['sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z'] },
  { text: 'stripe key sk_live_51HxYzAbCdEfGh12345678', secrets: ['sk_live_51HxYzAbCdEfGh12345678'] },
  { text: 'token ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8', secrets: ['ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8'] },
  { text: 'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuv', secrets: ['github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuv'] },
  { text: 'aws_access_key_id = AKIAIOSFODNN7EXAMPLE', secrets: ['AKIAIOSFODNN7EXAMPLE'] },
  { text: 'aws_secret_access_key: wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', secrets: ['wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'] },
  { text: 'maps key AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q', secrets: ['AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q'] },
  {
    text: 'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
    secrets: ['eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'],
  },
  { text: 'Bearer 8f14e45fceea167a5a36dedd4bea2543', secrets: ['8f14e45fceea167a5a36dedd4bea2543'] },
  { text: 'slack xoxb-123456789012-abcdefghijklmnop', secrets: ['xoxb-123456789012-abcdefghijklmnop'] },
  { text: 'glpat-xY7zAb9cDe1fGh3iJk5l works', secrets: ['glpat-xY7zAb9cDe1fGh3iJk5l'] },
  { text: 'https://api.example.com/v1/orders?api_key=9a8b7c6d5e4f3a2b&order=7731', secrets: ['9a8b7c6d5e4f3a2b'], keep: ['order=7731'] },
  { text: '{"access_token": "ya29.a0AfH6SMBx3", "expires_in": 3599}', secrets: ['ya29.a0AfH6SMBx3'], keep: ['3599'] },
  { text: '{"client_secret": "cs_9f8e7d6c5b4a"}', secrets: ['cs_9f8e7d6c5b4a'] },
  { text: 'the secret key is Zq8Lm2Xv9Rt4Wp7K', secrets: ['Zq8Lm2Xv9Rt4Wp7K'] },
  { text: 'refresh token: 1//0gL9xYzAbCdEfGhIjKlMn', secrets: ['1//0gL9xYzAbCdEfGhIjKlMn'] },
  { text: 'api key 7f3kQ92LmX0pZt8WvB4nR6yC', secrets: ['7f3kQ92LmX0pZt8WvB4nR6yC'] },
  {
    text: '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx7Zq\nkq9Lm\n-----END RSA PRIVATE KEY-----',
    secrets: ['MIIEowIBAAKCAQEAx7Zq', 'kq9Lm'],
  },
];

const IBANS = [
  'DE89 3704 0044 0532 0130 00',
  'GB82 WEST 1234 5698 7654 32',
  'FR14 2004 1010 0505 0001 3M02 606',
  'NL91 ABNA 0417 1643 00',
  'ES91 2100 0418 4502 0005 1332',
  'IT60 X054 2811 1010 0000 0123 456',
  'BE68 5390 0754 7034',
  'CH93 0076 2011 6238 5295 7',
  'AT61 1904 3002 3457 3201',
  'NO93 8601 1117 947',
  'PL61 1090 1014 0000 0712 1981 2874',
  'SE45 5000 0000 0583 9825 7466',
];
const compact = (s: string) => s.replace(/[\s-]/g, '');
const ibanCases: Case[] = IBANS.flatMap((iban): Case[] => [
  { text: `Please refund to IBAN ${iban} by 2024-05-15, thanks`, secrets: [iban, compact(iban)], keep: ['2024-05-15'] },
  { text: JSON.stringify({ payout: { account: compact(iban), amount: 1250.0 } }), secrets: [compact(iban)], keep: ['1250'] },
]);
ibanCases.push(
  { text: 'iban: nl91 abna 0417 1643 00', secrets: ['nl91 abna 0417 1643 00', '0417164300'] },
  { text: 'acct DE89-3704-0044-0532-0130-00 (order 7731)', secrets: ['DE89370400440532013000'], keep: ['7731'] },
);

const ssnCases: Case[] = [
  { text: 'SSN 123-45-6789', secrets: ['123-45-6789'] },
  { text: 'my social security number is 078-05-1120, phone 415-555-0100', secrets: ['078-05-1120'], keep: ['415-555-0100'] },
  { text: 'ssn: 536225514', secrets: ['536225514'] },
  { text: 'Social Security Number 457 55 5462', secrets: ['457 55 5462'] },
  { text: '{"ssn": "219099999", "dob": "1965-09-13"}', secrets: ['219099999'], keep: ['1965-09-13'] },
  { text: 'it is 372-88-1023 for the record', secrets: ['372-88-1023'] },
  { text: 'SSN: 601 22 4817', secrets: ['601 22 4817', '601224817'] },
  { text: 'my social is 219 09 9999, I use social media a lot', secrets: ['219 09 9999', '219099999'], keep: ['social media'] },
];

const CORPUS: Case[] = [...cardCases, ...cvvCases, ...otpCases, ...passwordCases, ...tokenCases, ...ibanCases, ...ssnCases];

// Everyday numbers a human needs: none of these may change.
const ORDINARY = [
  'Order #W2378156 was delivered; order 7731 is pending.',
  'The total is 49.99, or $1,250.00 with the upgrade.',
  'Flight HAT018 on 2024-05-15, return 05/15/2024.',
  'Reservation Q69X3R, confirmation code ABC123, promo code SAVE20.',
  'Ship to 763 Broadway, Philadelphia, PA, zip code 19122.',
  'Call me on +1 415-555-0100 or (415) 555 0100.',
  'Order number 1234567890123456 (it fails the Luhn check).',
  'Tracking 843053632392; items 6992792935 4202497723.',
  'Refund of 113.71000000000004 to paypal_7529813, gift_card_4964153 has 163.0.',
  'The token expired yesterday and my password is not working.',
  'I forgot my password, can you send a reset link?',
  'The key is under the mat; the code for order 7731 is wrong.',
  'error code 4001, status code 404, area code 415',
  'credit_card_7891819 ending in 4388, last four 4242',
  '{"order_id": "#W2378156", "zip": "19122", "price": 342.81, "date": "2024-05-15", "code": "SAVE20"}',
  'Member since 2019, 3 bags, seat 14C, gate B22.',
];

const caseFor = (c: Case) => `${c.text.slice(0, 60)}`;

describe('redactText over the corpus', () => {
  it('has at least 100 strings', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(100);
  });

  it.each(CORPUS.map((c) => [caseFor(c), c] as const))('leaves no full value: %s', (_, c) => {
    const { text, counts } = redactText(c.text);
    for (const secret of c.secrets) {
      expect(text).not.toContain(secret);
      // Nor with its separators taken out: a card or IBAN re-joined from the output is still a leak.
      if (/^[\d\s-]+$/.test(secret) || /^[A-Z]{2}\d{2}/.test(secret)) expect(compact(text)).not.toContain(compact(secret));
    }
    for (const kept of c.keep ?? []) expect(text).toContain(kept);
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  });

  it.each(ORDINARY)('keeps ordinary numbers: %s', (text) => {
    expect(redactText(text).text).toBe(text);
  });

  it('keeps the last four of a card and an IBAN, and nothing of the rest', () => {
    expect(redactText('card 4242 4242 4242 4242').text).toBe('card [card ••••4242]');
    expect(redactText('IBAN DE89 3704 0044 0532 0130 00.').text).toBe('IBAN [iban ••••3000].');
    expect(redactText('cvv 123, otp 482913, ssn 123-45-6789').text).toBe('cvv [cvv], otp [otp], ssn [ssn]');
  });

  it('counts each kind', () => {
    const { counts } = redactText('4242424242424242 and 5555 5555 5555 4444; CVV 123; token: abc123def456; SSN 123-45-6789');
    expect(counts).toMatchObject({ card: 2, cvv: 1, token: 1, ssn: 1, iban: 0, otp: 0 });
  });

  it('is idempotent: its markers are never redacted again', () => {
    for (const c of CORPUS) {
      const once = redactText(c.text).text;
      const twice = redactText(once);
      expect(twice.text).toBe(once);
      expect(Object.values(twice.counts).every((n) => n === 0)).toBe(true);
    }
  });

  it('redacts a labelled card number even when a digit is mistyped', () => {
    expect(redactText('my card number is 4242 4242 4242 4241').text).toBe('my card number is [card ••••4241]');
    expect(redactText('order 4242 4242 4242 4241').text).toBe('order 4242 4242 4242 4241');
  });

  it('finds the card inside a longer run of digit groups', () => {
    expect(redactText('4242 4242 4242 4242 2027').text).toBe('[card ••••4242] 2027');
  });
});

describe('redactValue', () => {
  it('hides whole values of sensitive fields, keeping the rest of the object', () => {
    const input = {
      user_id: 'yusuf_rossi_9620',
      password: 'hunter2',
      payment: { card_number: '4242-4242-4242-4242', cvv: 123, last_four: '4242', brand: 'visa' },
      auth: { apiKey: 'abc', access_token: 'tok', otp: 482913, code: '551203', status_code: 404 },
      bank: { iban: 'DE89370400440532013000', ssn: '123-45-6789' },
      error: { code: 'E_TIMEOUT' },
      has_secret: true,
      amount: 49.99,
      note: 'paid with 5555 5555 5555 4444',
    };
    const { value, counts } = redactValue(input);
    expect(value).toEqual({
      user_id: 'yusuf_rossi_9620',
      password: '[password]',
      payment: { card_number: '[card ••••4242]', cvv: '[cvv]', last_four: '4242', brand: 'visa' },
      auth: { apiKey: '[secret]', access_token: '[token]', otp: '[otp]', code: '[otp]', status_code: 404 },
      bank: { iban: '[iban ••••3000]', ssn: '[ssn]' },
      error: { code: 'E_TIMEOUT' },
      has_secret: true,
      amount: 49.99,
      note: 'paid with [card ••••4444]',
    });
    expect(counts).toMatchObject({ password: 1, card: 2, cvv: 1, secret: 1, token: 1, otp: 2, iban: 1, ssn: 1 });
  });

  it('uses the field name it is given, and treats array items like their field', () => {
    expect(redactValue('hunter2', 'new_password').value).toBe('[password]');
    expect(redactValue(['111222', '333444'], 'otp').value).toEqual(['[otp]', '[otp]']);
    expect(redactValue('19122', 'zip').value).toBe('19122');
    expect(redactValue(4242424242424242, 'number').value).toBe('[card ••••4242]');
  });

  it('leaves already-masked values and markers alone', () => {
    expect(redactValue({ card_number: '**** **** **** 4242', password: '[password]' }).value).toEqual({
      card_number: '**** **** **** 4242',
      password: '[password]',
    });
  });
});

describe('checks and names', () => {
  it('luhn and mod-97', () => {
    expect(CARDS.every(luhnValid)).toBe(true);
    expect(luhnValid('4242424242424241')).toBe(false);
    expect(IBANS.every(ibanValid)).toBe(true);
    expect(ibanValid('DE89 3704 0044 0532 0130 01')).toBe(false);
  });

  it('sensitive field names, in any case or separator style', () => {
    expect(sensitiveFieldKind('cardNumber')).toBe('card');
    expect(sensitiveFieldKind('Card-Number')).toBe('card');
    expect(sensitiveFieldKind('X-Api-Key')).toBe('secret');
    expect(sensitiveFieldKind('refresh_token')).toBe('token');
    expect(sensitiveFieldKind('security_code')).toBe('cvv');
    expect(sensitiveFieldKind('verification_code')).toBe('otp');
    expect(sensitiveFieldKind('zip_code')).toBeNull();
    expect(sensitiveFieldKind('max_tokens')).toBeNull();
    expect(sensitiveFieldKind('last_four')).toBeNull();
    expect(isRedactionMarker('[card ••••4242]')).toBe(true);
  });
});
