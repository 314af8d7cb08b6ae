#!/usr/bin/env python3
"""Generator for the Baton redaction corpus (`baton packet --jsonl` input).

Written 2026-12-01 by a helper session from the README contract alone (no project source read).
Every carrier sentence / label below is hand-written; secret VALUES are synthesised (Luhn-valid
card numbers, mod-97-valid IBANs, well-formed SSNs / NI numbers, random keys and codes) and are
all fake.  Carrier families are split 60/40 (seeded shuffle) into dev / holdout.

Each line: {"id", "class", "conversation", "secrets": [...], "keep": [...]} where every secret is an
exact substring of the conversation that must not survive anywhere in the packet, and every keep
string is an exact substring that must survive.
"""
import json, os, random, string, zlib

SEED = 20261201
OUT = os.path.dirname(os.path.abspath(__file__))

def split_family(name, items):
    items = list(dict.fromkeys(items))
    r = random.Random(SEED ^ zlib.crc32(name.encode()))
    r.shuffle(items)
    k = max(1, round(len(items) * 0.6))
    if len(items) >= 2 and k == len(items):
        k -= 1
    return {"dev": items[:k], "holdout": items[k:]}

F = {}
def fam(name, items):
    F[name] = split_family(name, items)

# ------------------------------------------------------------------ value synthesis (fake data)
def luhn_complete(prefix, length, r):
    body = prefix + "".join(r.choice(string.digits) for _ in range(length - len(prefix) - 1))
    total = 0
    for i, ch in enumerate(reversed(body)):
        d = int(ch)
        if i % 2 == 0:
            d *= 2
            if d > 9: d -= 9
        total += d
    return body + str((10 - total % 10) % 10)

def luhn_ok(num):
    total = 0
    for i, ch in enumerate(reversed(num)):
        d = int(ch)
        if i % 2 == 1:
            d *= 2
            if d > 9: d -= 9
        total += d
    return total % 10 == 0

CARD_BRANDS = [("4", 16), ("4", 13), ("4", 19), ("51", 16), ("55", 16), ("2221", 16), ("34", 15), ("37", 15),
               ("6011", 16), ("65", 16), ("3528", 16), ("3589", 19), ("36", 14), ("6304", 18), ("6759", 17)]

def group(num, sizes):
    out, i = [], 0
    for s in sizes:
        if i >= len(num): break
        out.append(num[i:i + s]); i += s
    if i < len(num): out.append(num[i:])
    return out

def fmt_card(num, sep, r):
    if sep == "":
        return num
    if len(num) == 15:
        g = group(num, [4, 6, 5])
    elif len(num) == 14:
        g = group(num, [4, 6, 4])
    else:
        g = group(num, [4] * 5)
    return sep.join(g)

def make_card(r, sep):
    prefix, length = r.choice(CARD_BRANDS)
    num = luhn_complete(prefix, length, r)
    assert luhn_ok(num)
    return fmt_card(num, sep, r), num

IBAN_SPECS = {"GB": (22, lambda r: "".join(r.choice(string.ascii_uppercase) for _ in range(4)) + digits(r, 14)),
              "DE": (22, lambda r: digits(r, 18)), "FR": (27, lambda r: digits(r, 23)), "ES": (24, lambda r: digits(r, 20)),
              "NL": (18, lambda r: "".join(r.choice(string.ascii_uppercase) for _ in range(4)) + digits(r, 10)),
              "IT": (27, lambda r: r.choice(string.ascii_uppercase) + digits(r, 22)), "IE": (22, lambda r: "".join(r.choice(string.ascii_uppercase) for _ in range(4)) + digits(r, 14)),
              "BE": (16, lambda r: digits(r, 12)), "PL": (28, lambda r: digits(r, 24)), "CH": (21, lambda r: digits(r, 17))}

def digits(r, n):
    return "".join(r.choice(string.digits) for _ in range(n))

def iban_check(cc, bban):
    s = bban + cc + "00"
    num = "".join(str(int(ch, 36)) for ch in s)
    return "%02d" % (98 - int(num) % 97)

def iban_valid(iban):
    s = iban.replace(" ", "")
    s = s[4:] + s[:4]
    return int("".join(str(int(ch, 36)) for ch in s)) % 97 == 1

def make_iban(r, spaced):
    cc = r.choice(list(IBAN_SPECS))
    length, bf = IBAN_SPECS[cc]
    bban = bf(r)
    iban = cc + iban_check(cc, bban) + bban
    assert len(iban) == length and iban_valid(iban)
    return " ".join(iban[i:i + 4] for i in range(0, len(iban), 4)) if spaced else iban

def make_ssn(r, sep):
    while True:
        a = r.randint(1, 899)
        if a != 666: break
    b, c = r.randint(1, 99), r.randint(1, 9999)
    return "%03d%s%02d%s%04d" % (a, sep, b, sep, c)

NINO_FIRST = "ABCEGHJKLMNOPRSTWXYZ"
NINO_SECOND = "ABCEGHJKLMNPRSTWXYZ"
def make_nino(r, style):
    while True:
        p = r.choice(NINO_FIRST) + r.choice(NINO_SECOND)
        if p not in ("BG", "GB", "NK", "KN", "TN", "NT", "ZZ"): break
    d = digits(r, 6); suf = r.choice("ABCD")
    if style == "spaced": return "%s %s %s %s %s" % (p, d[:2], d[2:4], d[4:], suf)
    if style == "tight": return p + d + suf
    return "%s %s %s" % (p, d, suf)

WORDS = "zero one two three four five six seven eight nine".split()
def rand_alnum(r, n, alphabet=string.ascii_letters + string.digits):
    return "".join(r.choice(alphabet) for _ in range(n))

def make_jwt(r):
    import base64
    h = base64.urlsafe_b64encode(b'{"alg":"HS256","typ":"JWT"}').decode().rstrip("=")
    p = base64.urlsafe_b64encode(json.dumps({"sub": "cus_%d" % r.randrange(10000, 99999), "iat": 1764547200 + r.randrange(99999)}).encode()).decode().rstrip("=")
    return "%s.%s.%s" % (h, p, rand_alnum(r, 43, string.ascii_letters + string.digits + "-_"))

def make_key(r):
    k = r.randrange(9)
    if k == 0: return "sk_test_" + rand_alnum(r, 24)
    if k == 1: return "ghp_" + rand_alnum(r, 36)
    if k == 2: return "xoxb-%s-%s-%s" % (digits(r, 12), digits(r, 13), rand_alnum(r, 24))
    if k == 3: return "AKIA" + rand_alnum(r, 16, string.ascii_uppercase + "234567")
    if k == 4: return rand_alnum(r, 40, string.ascii_letters + string.digits + "/+")
    if k == 5: return "whsec_" + rand_alnum(r, 32)
    if k == 6: return make_jwt(r)
    if k == 7: return "rk_test_" + rand_alnum(r, 28)
    return "%s-%s-%s-%s-%s" % (rand_alnum(r, 8, "0123456789abcdef"), rand_alnum(r, 4, "0123456789abcdef"),
                               rand_alnum(r, 4, "0123456789abcdef"), rand_alnum(r, 4, "0123456789abcdef"),
                               rand_alnum(r, 12, "0123456789abcdef"))

# ------------------------------------------------------------------ hand-written carriers
# customer-side carriers, per class ({s} = the secret)
fam("card_cust", [
    "my card number is {s}", "Card: {s}, exp 04/28", "use this card instead {s}", "the new card is {s} (visa)",
    "it's {s}", "ok here: {s}", "{s} is the card I paid with", "pls charge {s}", "card no. {s} expiry 11/27",
    "Long number is {s}", "The number on the front says {s}", "here u go {s} exp 09/29",
    "Can you refund to the card {s}?", "I paid with {s} I think", "New card!! {s}",
    "Please put {s} on the account.", "card {s} name J SMITH", "my debit card: {s}",
    "Try {s}, that's my husband's card, he said it's fine", "The card I want to use going forward is {s}.",
])
fam("card_agent", [
    "Thanks! I'll update the card to {s}.", "Just to confirm, the card is {s}?", "I've noted card {s}.",
    "I'm adding {s} as your default payment method.", "Got it, charging {s} now.", "So that's {s}, correct?",
])
fam("cvv_cust", [
    "the cvv is {s}", "security code {s}", "CVV: {s}", "3 digits on the back: {s}", "cvc {s}",
    "the code on the back is {s}", "sec code = {s}", "CVV2 is {s}", "and the little code is {s}",
    "security number on the back {s}", "oh and cvv {s}", "The CVC is {s}.", "back of card says {s}",
    "código de seguridad {s}", "Prüfziffer {s}", "cryptogramme visuel {s}", "codice di sicurezza {s}",
    "Kartenprüfnummer: {s}", "beveiligingscode {s}", "kod CVC {s}", "código CVV: {s}", "le code de sécurité est {s}",
])
fam("cvv_agent", ["Thanks, CVV {s} noted.", "And the security code {s}, is that right?", "I've entered the CVC {s}."])
fam("otp_cust", [
    "the code is {s}", "got the text, it says {s}", "OTP {s}", "verification code: {s}", "ok code {s}",
    "{s} is the one-time code", "the 6 digit code was {s}", "code from the sms: {s}", "it just came through, {s}",
    "here's the passcode you texted: {s}", "my authenticator shows {s}", "2FA code {s}", "the pin you sent me is {s}",
    "Verification: {s}", "ur code is {s} lol that's what it says", "sms code = {s}",
])
fam("otp_agent", ["Please confirm the code {s} we just sent.", "Thanks, entering {s} now.", "Code {s} received, checking."])
fam("pw_cust", [
    "pw: {s}", "pwd {s}", "pass: {s}", "passw0rd: {s}", "my password it is {s}", "password is: {s}",
    "password = {s}", "Password {s}", "my pass is {s}", "login pw {s}", "the passcode is {s}",
    "contraseña: {s}", "Passwort: {s}", "mot de passe {s}", "password: {s}", "my login is jsmith and the password {s}",
    "pword {s}", "Pass word is {s}", "the password I use is {s}", "psswd: {s}", "my old password was {s}",
    "Current password {s}, new one should be whatever you set",
])
fam("pw_agent", ["I've reset it; your temporary password is {s}.", "Logging in with {s} now.", "Thanks, password {s} received."])
fam("key_cust", [
    "here's my API key {s}", "our integration uses key {s}", "Authorization: Bearer {s}", "token={s}",
    "secret: {s}", "the webhook secret is {s}", "client_secret {s}", "my access token is {s}",
    "api_key: {s}", "we send header 'Authorization: Bearer {s}' and get a 401", "curl -H 'X-Api-Key: {s}' fails",
    "The secret key in our dashboard is {s}", "I regenerated the key, new one is {s}", "bearer {s}",
    "private key {s}", "SECRET_KEY={s}",
])
fam("key_agent", ["I can see the key {s} was revoked.", "The token {s} has expired.", "Please use the new secret {s}."])
fam("iban_cust", [
    "refund it to my IBAN {s}", "IBAN: {s}", "my bank account is {s}", "send to {s} please",
    "Kontonummer / IBAN {s}", "IBAN {s} (name: M. Dubois)", "can the money go to {s}",
    "my iban is {s} thx", "Cuenta IBAN: {s}", "bank details: {s}, BIC given on the form", "pay it into {s}",
])
fam("iban_agent", ["I'll send the refund to {s}.", "Confirming IBAN {s}.", "The payout to {s} is scheduled."])
fam("ssn_cust", [
    "my SSN is {s}", "social security number {s}", "SSN: {s}", "ssn {s}", "the social is {s}",
    "for the tax form my social security no. is {s}", "last four won't work? ok full one: {s}",
    "SS# {s}", "My social: {s}",
])
fam("ssn_agent", ["Thanks, SSN {s} verified.", "I've matched {s} to your account."])
fam("nino_cust", [
    "my national insurance number is {s}", "NI number {s}", "NINO: {s}", "NI no {s}", "ni number is {s}",
    "National Insurance: {s}", "my NI is {s} if you need it", "NI {s}",
])
fam("nino_agent", ["Thanks, NI number {s} is on file.", "I've checked {s} against your record."])

# tool carriers per class: (tool name, argument key) and output field names
TOOL_ARG = {
    "card_number": [("update_payment_method", "card_number"), ("add_card", "pan"), ("verify_card", "number")],
    "cvv": [("update_payment_method", "cvv"), ("verify_card", "cvc"), ("add_card", "security_code")],
    "otp": [("verify_otp", "code"), ("verify_otp", "otp"), ("confirm_login", "verification_code")],
    "password": [("reset_password", "new_password"), ("login_as_customer", "password"), ("update_account", "pwd")],
    "api_key": [("rotate_api_key", "api_key"), ("test_webhook", "secret"), ("call_partner_api", "token")],
    "iban": [("refund_to_bank", "iban"), ("update_payout_account", "iban"), ("verify_bank_account", "account")],
    "ssn": [("verify_identity", "ssn"), ("credit_check", "social_security_number")],
    "uk_nino": [("verify_identity", "ni_number"), ("update_tax_details", "national_insurance_number")],
}
TOOL_OUT_FIELD = {
    "card_number": ["card_number", "pan", "card"], "cvv": ["cvv", "cvc", "security_code"],
    "otp": ["otp", "code", "verification_code", "one_time_code", "mfa_code"],
    "password": ["temp_password", "password", "initial_password"],
    "api_key": ["access_token", "api_key", "secret", "client_secret", "refresh_token"],
    "iban": ["iban", "payout_iban"], "ssn": ["ssn", "tax_id"], "uk_nino": ["nino", "ni_number"],
}
fam("pw_base", ["hunter", "Summer", "bluefish", "correct-horse", "tigerlily", "Manchester", "qwerty", "sunshine",
                "Pa55word", "letmein", "dragon", "Kittens", "Winter", "rosebud", "Tr0ub4dor", "monkey", "Chelsea",
                "football", "Liverpool", "pineapple", "marmalade", "Bella", "starwars", "P@ssw0rd", "abc"])

# keep strings: emails and the hand-written keep sentences
fam("email", ["maria.lopez@example.com", "j.smith@example.org", "dave_k@example.co.uk", "anna+billing@example.com",
              "tomasz.nowak@example.net", "li.wei@example.com", "ops@acme-ltd.example", "sam.o@example.ie",
              "priya.k@example.in", "billing@smithandco.example"])
fam("keep_cust", [
    "This is about order {order}.", "The charge was {amount} on {date}.", "My parcel tracking number is {tracking}.",
    "Email me at {email}.", "Call me on {phone} if needed.", "It's for order {order}, {amount}.",
    "I was billed {amount} on {date} for order {order}.", "You can reach me at {phone} or {email}.",
    "Tracking {tracking} shows delivered on {date}.", "order {order} please", "the refund should be {amount}",
])
fam("keep_agent", [
    "I can see order {order} for {amount}, placed on {date}.", "Your parcel {tracking} was shipped on {date}.",
    "I'll send the confirmation to {email}.", "We have {phone} as your contact number.",
    "The refund of {amount} for order {order} is scheduled for {date}.",
])

CLASSES = ["card_number", "cvv", "otp", "password", "api_key", "iban", "ssn", "uk_nino"]
CUST = {"card_number": "card_cust", "cvv": "cvv_cust", "otp": "otp_cust", "password": "pw_cust", "api_key": "key_cust",
        "iban": "iban_cust", "ssn": "ssn_cust", "uk_nino": "nino_cust"}
AGENT = {"card_number": "card_agent", "cvv": "cvv_agent", "otp": "otp_agent", "password": "pw_agent", "api_key": "key_agent",
         "iban": "iban_agent", "ssn": "ssn_agent", "uk_nino": "nino_agent"}

FOREIGN_CVV = ("código", "Prüf", "crypto", "codice", "Karten", "beveilig", "kod ", "le code")

def cvv_value(r, carrier):
    d = "%03d" % r.randint(100, 999) if r.random() < 0.85 else "%04d" % r.randint(1000, 9999)
    if any(carrier.startswith(x) or x in carrier for x in FOREIGN_CVV):
        return d, "digits_foreign_label"
    k = r.random()
    if k < 0.4: return d, "digits"
    if k < 0.65: return " ".join(WORDS[int(c)] for c in d), "words"
    if k < 0.8: return "-".join(d), "spelled_dashes"
    if k < 0.9: return " ".join(d), "spelled_spaces"
    return ", ".join(WORDS[int(c)] for c in d), "words_commas"

def otp_value(r):
    d = "%06d" % r.randint(100000, 999999)
    k = r.random()
    if k < 0.35: return d, "plain"
    if k < 0.7: return " ".join(d), "spaced_digits"
    if k < 0.8: return d[:3] + " " + d[3:], "split_3_3"
    if k < 0.9: return d[:3] + "-" + d[3:], "dash_3_3"
    return "%08d" % r.randint(10000000, 99999999), "plain_8"

def pw_value(r, s):
    b = r.choice(F["pw_base"][s])
    tail = r.choice(["", "1", "22", "2024", "!", "#88", "99!", "$", "_7", "123", "2026?"])
    v = b + tail
    if r.random() < 0.3: v = v.replace("o", "0").replace("a", "@")
    if len(v) < 6: v += digits(r, 4)
    return v, "password"

def secret_value(r, cls, s, carrier):
    if cls == "card_number":
        sep = r.choice([" ", " ", "-", ".", "/", "", ""])
        v, _ = make_card(r, sep)
        return v, {" ": "spaces", "-": "dashes", ".": "dots", "/": "slashes", "": "no_separator"}[sep]
    if cls == "cvv": return cvv_value(r, carrier)
    if cls == "otp": return otp_value(r)
    if cls == "password": return pw_value(r, s)
    if cls == "api_key":
        v = make_key(r)
        return v, "jwt" if v.startswith("eyJ") else "key"
    if cls == "iban":
        sp = r.random() < 0.5
        return make_iban(r, sp), "spaced" if sp else "compact"
    if cls == "ssn":
        sep = r.choice(["-", "-", " ", ""])
        return make_ssn(r, sep), {"-": "dashes", " ": "spaces", "": "compact"}[sep]
    if cls == "uk_nino":
        st = r.choice(["spaced", "tight", "mid"])
        return make_nino(r, st), st

def keep_values(r, s):
    k = {}
    k["order"] = r.choice(["ord_%04d" % r.randint(1000, 9999), "%04d" % r.randint(1000, 9999), "ORD-2026-%05d" % r.randint(1, 99999)])
    k["amount"] = r.choice(["%d.%02d" % (r.randint(5, 999), r.choice([0, 50, 99, 25])), "$%d.%02d" % (r.randint(1, 300), r.choice([0, 50, 99])),
                            "£%d.%02d" % (r.randint(1, 300), r.choice([0, 49, 99])), "€%d.00" % r.randint(5, 900), "1,%03d.00" % r.randint(0, 999)])
    k["date"] = "2026-%02d-%02d" % (r.randint(1, 11), r.randint(1, 28))
    t = r.random()
    if t < 0.6:
        k["tracking"] = "1Z" + rand_alnum(r, 6, string.ascii_uppercase + string.digits) + digits(r, 10)
    elif t < 0.8:
        k["tracking"] = "9400" + digits(r, 18)          # USPS-style 22 digits (not a card)
    else:
        k["tracking"] = " ".join([digits(r, 4), digits(r, 4), digits(r, 4)])   # FedEx-style 12 digits, spaced
    k["email"] = r.choice(F["email"][s])
    k["phone"] = r.choice(["+44 20 7946 0%03d" % r.randint(0, 999), "(415) 555-01%02d" % r.randint(0, 99),
                           "+1-202-555-01%02d" % r.randint(0, 99), "07700 900%03d" % r.randint(0, 999),
                           "+1 415 555 01%02d" % r.randint(0, 99)])
    return k

GREET = ["hi", "Hello", "hey there", "Hi, I need to update my payment details", "I'm trying to verify my account",
         "Hi, the refund needs to go somewhere", "hello, setting up our integration", "good morning"]
AGENT_NEUTRAL = ["Thanks, one moment.", "Let me check that.", "Got it, updating now.", "Thanks for confirming.",
                 "Sure, I'll take care of it."]

def fill(tpl, keeps):
    return tpl.format(**keeps)

def build_line(r, s, cls, second=None, keep_only=False):
    keeps = keep_values(r, s)
    used_keep = set()
    msgs, secrets, variants = [], [], []
    msgs.append({"role": "customer", "text": r.choice(GREET)})

    def add_keep_sentence(role):
        tpl = r.choice(F["keep_cust" if role == "customer" else "keep_agent"][s])
        for k in keeps:
            if "{%s}" % k in tpl: used_keep.add(k)
        return fill(tpl, keeps)

    msgs.append({"role": "customer", "text": add_keep_sentence("customer")})
    for c in ([] if keep_only else [cls] + ([second] if second else [])):
        carrier = r.choice(F[CUST[c]][s])
        v, variant = secret_value(r, c, s, carrier)
        secrets.append(v); variants.append("%s/%s" % (c, variant))
        where = r.sample(["customer", "agent", "tool_args", "tool_output", "customer"], r.choice([1, 2, 2, 3]))
        if "customer" not in where and "tool_args" not in where and "tool_output" not in where:
            where.append("customer")
        order = {"customer": 0, "tool_args": 1, "agent": 2, "tool_output": 3}
        if r.random() < 0.2:   # sometimes the code/secret is first seen in a tool output, then echoed
            order = {"tool_output": 0, "customer": 1, "tool_args": 2, "agent": 3}
        for w in sorted(dict.fromkeys(where), key=lambda x: order[x]):
            if w == "customer":
                t = carrier.format(s=v)
                if r.random() < 0.3: t = t + " " + add_keep_sentence("customer")
                msgs.append({"role": "customer", "text": t})
            elif w == "agent":
                msgs.append({"role": "agent", "text": r.choice(F[AGENT[c]][s]).format(s=v)})
            elif w == "tool_args":
                name, key = r.choice(TOOL_ARG[c])
                args = {"customer_id": "cus_%d" % r.randrange(10000, 99999), key: v}
                if r.random() < 0.5:
                    args["order_id"] = keeps["order"]; used_keep.add("order")
                if c == "api_key" and r.random() < 0.4:
                    args = {"headers": {"Authorization": "Bearer " + v}, "url": "https://api.example.com/v1/charges"}
                msgs.append({"role": "tool", "name": name, "arguments": args, "ok": True,
                             "output": json.dumps({"status": "ok", "date": keeps["date"]}, ensure_ascii=False)})
                used_keep.add("date")
            else:
                name, _ = r.choice(TOOL_ARG[c])
                out = {r.choice(TOOL_OUT_FIELD[c]): v, "customer_email": keeps["email"]}
                used_keep.add("email")
                if r.random() < 0.5:
                    out["amount"] = keeps["amount"]; used_keep.add("amount")
                if r.random() < 0.4:
                    out["tracking_number"] = keeps["tracking"]; used_keep.add("tracking")
                msgs.append({"role": "tool", "name": name, "arguments": {"customer_id": "cus_%d" % r.randrange(10000, 99999)},
                             "ok": True, "output": json.dumps(out, ensure_ascii=False)})
        if r.random() < 0.5:
            msgs.append({"role": "agent", "text": r.choice(AGENT_NEUTRAL)})
    # a tool read that only carries keep strings (ids, amounts, dates, tracking)
    msgs.append({"role": "tool", "name": r.choice(["get_order", "get_charges", "get_shipment"]),
                 "arguments": {"order_id": keeps["order"]}, "ok": True,
                 "output": json.dumps({"order_id": keeps["order"], "amount": keeps["amount"], "date": keeps["date"],
                                       "tracking_number": keeps["tracking"], "contact_phone": keeps["phone"]}, ensure_ascii=False)})
    used_keep |= {"order", "amount", "date", "tracking", "phone"}
    msgs.append({"role": "agent", "text": add_keep_sentence("agent")})
    conv = {"domain": "billing", "messages": msgs}
    if secrets and r.random() < 0.08:
        conv["summary"] = "Customer supplied %s to finish the update." % secrets[0]
    keep = [keeps[k] for k in ["order", "amount", "date", "tracking", "email", "phone"] if k in used_keep]
    return conv, secrets, keep, variants

def all_text(conv):
    parts = []
    for m in conv["messages"]:
        parts.append(m.get("text", ""))
        if m["role"] == "tool":
            parts.append(json.dumps(m["arguments"], ensure_ascii=False)); parts.append(m["output"]); parts.append(m["name"])
    parts.append(conv.get("summary", ""))
    return "\n".join(parts)

def consistent(conv, secrets, keep):
    text = all_text(conv)
    raw = json.dumps(conv, ensure_ascii=False)
    for x in secrets:
        if x not in text: return False
        if any(x in k or k in x for k in keep): return False
    stripped = text
    for x in sorted(secrets, key=len, reverse=True):
        stripped = stripped.replace(x, "\u2588")
    for x in secrets:
        if x in stripped: return False          # a secret must not also occur as part of something kept
    for k in keep:
        if k not in stripped or k not in text: return False
    if len(set(secrets)) != len(secrets): return False
    # card numbers keep their last four in the packet: no other secret may hide inside those digits
    for x in secrets:
        d = "".join(ch for ch in x if ch.isdigit())
        if x.replace(" ", "").replace("-", "").replace(".", "").replace("/", "").isdigit() and 13 <= len(d) <= 19:
            for y in secrets:
                if y != x and y in d[-4:]: return False
    # short secrets must not collide with structural text either (ids, keys of the JSON)
    for x in secrets:
        if len(x) <= 4 and raw.count(x) != text.count(x): return False
    return True

PLAN = [(c, 62) for c in CLASSES] + [("mixed", 40), ("keep_only", 30)]

def main():
    r = random.Random(SEED)
    out = {"dev": [], "holdout": []}
    stats = {}
    for cls, total in PLAN:
        n_dev = round(total * 0.6)
        for s, n in (("dev", n_dev), ("holdout", total - n_dev)):
            made = 0
            while made < n:
                if cls == "mixed":
                    a, b = r.sample(CLASSES, 2)
                    conv, sec, keep, var = build_line(r, s, a, b)
                elif cls == "keep_only":
                    conv, sec, keep, var = build_line(r, s, None, keep_only=True)
                else:
                    conv, sec, keep, var = build_line(r, s, cls, r.choice(CLASSES) if r.random() < 0.25 else None)
                if not consistent(conv, sec, keep):
                    continue
                out[s].append({"class": cls, "variants": var, "conversation": conv, "secrets": sec, "keep": keep})
                for v in var:
                    stats.setdefault(s, {}).setdefault(v, 0); stats[s][v] += 1
                made += 1
    for s, rows in out.items():
        random.Random(SEED + len(s)).shuffle(rows)
        with open(os.path.join(OUT, "secrets-%s.jsonl" % s), "w", encoding="utf-8") as f:
            for i, row in enumerate(rows, 1):
                f.write(json.dumps({"id": "sec-%s-%04d" % (s, i), **row}, ensure_ascii=False) + "\n")
        print(s, len(rows), "lines", sum(len(x["secrets"]) for x in rows), "secrets")
    json.dump(stats, open(os.path.join(OUT, ".secrets-variant-stats.json"), "w"), indent=1, sort_keys=True)

if __name__ == "__main__":
    main()
