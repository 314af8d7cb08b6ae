import { describe, expect, it } from 'vitest';
import { cardPrefixValid, luhnValid, ninoValid, redactText, ssnValid } from './redact.js';

/** `text` redacted must not contain `secret` (any case, or re-joined without separators when long). */
function expectHidden(text: string, secret: string): void {
  const out = redactText(text).text;
  expect(out.toLowerCase()).not.toContain(secret.toLowerCase());
  const compact = (s: string) => s.toLowerCase().replace(/[\s\-._/·,]/g, '');
  if (compact(secret).length >= 8) expect(compact(out)).not.toContain(compact(secret));
}

describe('cards, however they are grouped', () => {
  const card = '4111111111111111';
  const groups = card.match(/.{4}/g) ?? [];
  it.each([' ', '-', '.', '/', ' / ', '_', '·', '  ', ' - '])('separator %j', (sep) => {
    const text = `my card is ${groups.join(sep)}, thanks`;
    expect(redactText(text).text).toBe('my card is [card ••••1111], thanks');
  });

  it('takes mixed separators, Amex and Diners grouping, and numbers with no label', () => {
    expect(redactText('4111 1111-1111.1111').text).toBe('[card ••••1111]');
    expect(redactText('use 3782 822463 10005 please').text).toBe('use [card ••••0005] please');
    expect(redactText('3056.930902.5904').text).toBe('[card ••••5904]');
    expect(redactText('order paid with 4111 1111 1111 1111').text).toBe('order paid with [card ••••1111]');
  });

  it('takes a card spelled out after its label', () => {
    const spelled = 'four one one one one one one one one one one one one one one one';
    expect(redactText(`card number ${spelled}`).text).toBe('card number [card ••••1111]');
  });

  it('keeps Luhn-valid numbers that are not cards: IMEI, tracking numbers, barcodes, amounts', () => {
    for (const text of [
      'IMEI 356938035643809',
      'Tracking 9400 1000 0000 0000 0000 00',
      'USPS 9400111899223100001234',
      'EAN 4006381333931',
      'Refund of 113.71000000000004 done',
      'total 4,242.42 on 2024.05.15',
      'IP 192.168.100.200',
      'Tracking number 9400 4574 3481 4544 5905 55 shows nothing.',
      '{"tracking_number":"9400 5155 4815 8049 9279 49"}',
      'order 4111111111111111',
      '{"sku": "4111111111111111"}',
    ]) {
      expect(redactText(text).text).toBe(text);
    }
  });

  it('checks the issuer prefix by length', () => {
    expect(cardPrefixValid('378282246310005')).toBe(true);
    expect(cardPrefixValid('356938035643809')).toBe(false);
    expect(luhnValid('356938035643809')).toBe(true);
    expect(cardPrefixValid('9400100000000000')).toBe(false);
  });
});

describe('security codes, in words, other languages, digit by digit', () => {
  it.each([
    ['the cvv is seven three seven', '[cvv]'],
    ['CVV: 7 3 7', '[cvv]'],
    ['cvc 7-3-7', '[cvv]'],
    ['security code: seven, three, seven', '[cvv]'],
    ['the numbers on the back of my card are 737', '[cvv]'],
    ['back of card says 737', '[cvv]'],
    ['mi código de seguridad es siete tres siete', '[cvv]'],
    ['le cryptogramme est sept trois sept', '[cvv]'],
    ['le code de sécurité est 737', '[cvv]'],
    ['Die Kartenprüfnummer lautet sieben drei sieben', '[cvv]'],
    ['card security code (CVV): 737', '[cvv]'],
    ['il codice di sicurezza è sette tre sette', '[cvv]'],
    ['o código de segurança é sete três sete', '[cvv]'],
    ['beveiligingscode: zeven drie zeven', '[cvv]'],
    ['cvv seven hundred thirty-seven', '[cvv]'],
  ])('%s', (text, marker) => {
    const out = redactText(text).text;
    expect(out).toContain(marker);
    expect(out).not.toMatch(/\b(?:7\s?3\s?7|seven|sept|sieben|sette|sete|zeven|siete)\b/i);
  });
});

describe('one-time codes with spaced or spelled digits, before or after the label', () => {
  it.each([
    ['code: 4 8 2 9 1 3', '482913'],
    ['your verification code is 48 29 13', '482913'],
    ['the code is 482-913', '482913'],
    ['OTP four eight two nine one three', 'four eight two nine one three'],
    ['482913 is my code', '482913'],
    ['4 8 2 9 1 3 is your verification code', '4 8 2 9 1 3'],
    ['mi código es 482913', '482913'],
    ['der Bestätigungscode lautet 482913', '482913'],
    ['code from the sms: 482913', '482913'],
    ['Verification: 482 913', '482 913'],
    ['2FA code double four one two nine nine', 'double four one two nine nine'],
    ["482913 — that's the code", '482913'],
    ['the six digits are 482913', '482913'],
    ['the digits you sent: 482913', '482913'],
    ['The code is: four-eight-two-nine-one-three', 'four-eight-two-nine-one-three'],
    ['my code 48-29-13', '48-29-13'],
    ['When the agent texts you a code, the code you receive is 256732.', '256732'],
    ['G-482913 is your Google verification code', '482913'],
  ])('%s', (text, secret) => expectHidden(text, secret));

  it('keeps a code label away from its everyday uses', () => {
    for (const text of [
      'the code for order 7731 is wrong',
      'zip code 19122, area code 415, error code 4001',
      'the verification code expired on 12.05.2024',
      'sort code 12-34-56',
      'promo code 2024 applied',
      'order 7731 the code is wrong',
      'Order 48291, the code is wrong',
      'Error: code 4001',
      'The customer cannot pass the one-time-code check: hand off to a human',
      '{"error": {"code": 4001, "message": "card declined"}}',
      '482913 code',
    ]) {
      expect(redactText(text).text).toBe(text);
    }
  });
});

describe('passwords after any label', () => {
  it.each([
    ['pw: hunter22', 'hunter22'],
    ['pwd hunter', 'hunter'],
    ['psswd: letmein_7', 'letmein_7'],
    ['pass: Sunshine2024', 'Sunshine2024'],
    ['my passw0rd is bluemoon', 'bluemoon'],
    ['p@ssword = Tr0ub4dor', 'Tr0ub4dor'],
    ['my password it is Sunshine2024', 'Sunshine2024'],
    ['my password, it is Sunshine2024', 'Sunshine2024'],
    ['I changed my password to Summer2024!', 'Summer2024'],
    ['the password for the portal is Xy9-pw7Qa', 'Xy9-pw7Qa'],
    ['the passcode is letmein_7', 'letmein_7'],
    ['mot de passe: soleil42', 'soleil42'],
    ['mein Passwort ist Sommer2024!', 'Sommer2024'],
    ['mi contraseña es gato_negro9', 'gato_negro9'],
    ['a senha é Brasil2024', 'Brasil2024'],
    ["my pwd's hunter2", 'hunter2'],
    ['password (case sensitive): Hunter2', 'Hunter2'],
    ['PASSWORD: SUNSHINE2024', 'SUNSHINE2024'],
    ['Sunshine2024 is my password', 'Sunshine2024'],
    ["hunter2 - that's the new pw", 'hunter2'],
  ])('%s', (text, secret) => expectHidden(text, secret));

  it('keeps talk about a password', () => {
    for (const text of [
      'My password is not working',
      'password reset link sent to ana@example.com',
      'I forgot my password, can you send a reset link?',
      'Can you pass this to a human?',
      'my boarding pass says seat 14C',
      'the password field is required',
      'I reset it yesterday, is my password ok?',
      'That is my password',
    ]) {
      expect(redactText(text).text).toBe(text);
    }
  });
});

describe('national numbers', () => {
  it('UK National Insurance numbers by HMRC format, any spacing', () => {
    for (const nino of ['AB 12 34 56 C', 'AB123456C', 'JG 103759 A', 'ab123456c']) expectHidden(`my NI number is ${nino}`, nino);
    expectHidden('NINO: QQ 12 34 56 C', 'QQ 12 34 56 C');
    expectHidden('QQ123456C is my national insurance number', 'QQ123456C');
    expect(redactText('reference AB123456C').text).toBe('reference [nino]');
    // Outside HMRC's format and with no label: a booking reference, a word.
    for (const text of ['booking QQ123456C', 'ref DF123456A', 'ticket AB123456', 'on 12 34 56 a']) expect(redactText(text).text).toBe(text);
    expect(ninoValid('AB123456C')).toBe(true);
    expect(ninoValid('GB123456A')).toBe(false);
  });

  it('IBANs grouped with dots too', () => {
    expect(redactText('DE89.3704.0044.0532.0130.00').text).toBe('[iban ••••3000]');
  });

  it('SSNs by the SSA rules when unlabelled', () => {
    expectHidden('it is 372 88 1023 for the record', '372 88 1023');
    expectHidden('it is 372.88.1023', '372.88.1023');
    expect(redactText('lot 000 12 3456 and 666 12 3456').text).toBe('lot 000 12 3456 and 666 12 3456');
    expect(ssnValid('078051120')).toBe(true);
    expect(ssnValid('900123456')).toBe(false);
  });
});

describe('keys a few words after their label', () => {
  it('a generated value or a UUID after "key" or "secret"', () => {
    expectHidden('I regenerated the key, new one is d7adc277-256d-7b81-a204-153eef66d0f4', 'd7adc277-256d-7b81-a204-153eef66d0f4');
    expectHidden('here is the secret we use: s9N2KavVwJrlYy3RTKNOH4w/6IN3XJSZ', 's9N2KavVwJrlYy3RTKNOH4w/6IN3XJSZ');
  });

  it('keeps ids that no key label introduces', () => {
    const text = 'the key is under the mat; order 952d7e33-9a82-8142-a6ad-4834fecae27b';
    expect(redactText(text).text).toBe(text);
  });
});

describe('a short reply is read as the answer to the question before it', () => {
  it.each([
    ['What is the code we just texted you?', '4 8 2 9 1 3', '[otp]'],
    ['Could you read me the CVV?', 'seven three seven', '[cvv]'],
    ['What is your password?', "sure, it's Sunshine2024", "sure, it's [password]"],
    ['What is the long number on your card?', '4111 1111 1111 1111', '[card ••••1111]'],
  ])('%s → %s', (question, reply, expected) => {
    expect(redactText(reply, { answers: question }).text).toBe(expected);
  });

  it('keeps the answer to an ordinary question', () => {
    expect(redactText('19122', { answers: 'What is your zip code?' }).text).toBe('19122');
    expect(redactText('order 7731', { answers: 'Which order is it?' }).text).toBe('order 7731');
  });
});

describe('JSON held as text stays JSON', () => {
  it('quotes a marker that replaces a bare number', () => {
    const out = redactText('{"cvv": 737, "pin": 4821, "amount": 12.5, "otp": "048213"}').text;
    expect(JSON.parse(out)).toEqual({ cvv: '[cvv]', pin: '[password]', amount: 12.5, otp: '[otp]' });
  });
});
