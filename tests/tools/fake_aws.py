#!/usr/bin/env python3
"""fake_aws.py - a local stand-in for the AWS Pricing API and the Spot
Advisor feed, for the offline tests of `ec2fit update`.

Standard library only. Binds 127.0.0.1 on a free port (port 0), writes the
port to --port-file (atomically), and exits by itself after --lifetime
seconds whatever happens. Every GetProducts request must carry a valid
SigV4 Authorization header, which is recomputed here with hmac/hashlib
from the request as received, so a wrong signer fails with the same 403
the real service returns. Each request is logged as one line to --log.

Scenarios (--scenario) change one thing at a time:
  ok          pages of --page-size products, spot feed from spot.json
  retry500    the first GetProducts request gets HTTP 500
  retryafter  the first GetProducts request gets HTTP 429, Retry-After: 2
  redirect    GetProducts answers HTTP 307 to another host
  truncated   GetProducts replies declare more bytes than they send
  badjson     GetProducts replies are not JSON
  badinner    a PriceList element is a string that is not JSON
  big         the spot feed is ~2 MB (test lowers the cap)
  stall       GetProducts never answers (the client must time out)
  drop        GetProducts replies are cut mid-transfer (connection reset)
  spothalf    the spot feed lists half of the instance types
  bigmove     p4d.24xlarge on-demand prices are 10x higher
  spotauth    like ok, but the spot feed refuses requests carrying an
              Authorization header (it is public: none must be sent)
  newfar      m5.large us-west-2 (a pair the base catalog does not price)
              costs 10x its family's median per vCPU
  spotrange   the feed gives t3.micro us-east-1 a saving of 97%
  tokenloop   us-east-1's third page sends the first page's NextToken
              again (a cycle the "same as the last token" check misses)
  reservedhigh  like ok, plus a 1-year standard No Upfront term for
              m5.large us-east-1 at 0.12, above its on-demand 0.097
  capblock    like ok, plus a Capacity Blocks for ML product for
              p4d.24xlarge us-east-1 (attribute marketoption=CapacityBlock,
              14.75/h, the rate the AWS pricing page listed before 2025)
  sphigh      the Savings Plans API gives p4d.24xlarge us-east-1 1-year
              rates (both plans) of 25.0, above its on-demand
  sp3over1    ... 3-year rates (both plans) of 16.0, above its 1-year
              14.1423
  odcut       GetProducts lowers p4d.24xlarge us-east-1 to 12.0 and the
              Savings Plans API lists no rate for that pair (a catalog's
              kept rates are judged against the new price)
  spbadjson   DescribeSavingsPlansOfferingRates replies are not JSON
  spbadrate   ... the first result's rate is "1e3"
  spdenied    DescribeSavingsPlansOfferingRates answers HTTP 403 as AWS
              does for an IAM denial (x-amzn-ErrorType AccessDeniedException,
              a Message naming the action), and GetProducts lowers
              p4d.24xlarge us-east-1 to 12.0 as in odcut
  spdenied400 ... HTTP 400 with "__type": "AccessDeniedException" in the
              body (no header), on-demand cut the same way
(Every scenario answers POST /DescribeSavingsPlansOfferingRates, the
Savings Plans API, from savings_plans.json: SigV4 for service
savingsplans, rest-json, filters checked, pages of --sp-page-size.)
(Every scenario lists the Reserved terms of reserved.json, if present,
beside the on-demand ones, as the Pricing API does.)

Credential endpoints (the SDKs' default chain; each hands out the
--access-key/--secret/--token the Pricing API then checks):
  POST form Action=AssumeRoleWithWebIdentity  STS, unsigned; the token must
              be --web-token
  POST form Action=AssumeRole                 STS, SigV4 (service sts) with
              --source-key/--source-secret
  PUT  /latest/api/token, GET /latest/meta-data/iam/security-credentials/
              [ROLE]                          IMDSv2 (token header required)
  GET  /ecs/creds                             container credentials;
              Authorization must be --container-token
  GET  /federation/credentials?account_id=&role_name=   SSO portal;
              x-amz-sso_bearer_token must be --sso-token
Their failure scenarios: cred403 (HTTP 403 with the service's error),
credbad (a 200 answer without credentials), credexpired (Expiration in
2020).
"""
import argparse
import base64
import email.utils
import hashlib
import hmac
import json
import os
import socket
import struct
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SIG_MISMATCH = ("The request signature we calculated does not match the "
                "signature you provided. Check your AWS Secret Access Key "
                "and signing method. Consult the service documentation for "
                "details.")


def reserved_terms(sku, terms):
    """The product's "Reserved" terms as the Pricing API lists them beside
    "OnDemand" in the same element: one term per (LeaseContractLength,
    OfferingClass, PurchaseOption), a No Upfront term with one "Hrs"
    dimension (the hourly rate) and no upfront-fee dimension."""
    out = {}
    for n, (lease, cls, option, usd) in enumerate(terms):
        code = "%s.R%02d" % (sku, n)
        out[code] = {
            "priceDimensions": {
                code + ".6YS6EN2CT7": {
                    "unit": "Hrs", "endRange": "Inf", "beginRange": "0",
                    "description": "Linux/UNIX (Amazon VPC), %s %s %s" % (lease, cls, option),
                    "appliesTo": [], "rateCode": code + ".6YS6EN2CT7",
                    "pricePerUnit": {"USD": usd},
                }
            },
            "sku": sku, "effectiveDate": "2026-11-01T00:00:00Z",
            "offerTermCode": "R%02d" % n,
            "termAttributes": {"LeaseContractLength": lease, "OfferingClass": cls,
                               "PurchaseOption": option},
        }
    return out


def price_item(region, itype, usd, sku=None, reserved=()):
    """One PriceList element as the Pricing API serialises it (a string).
    reserved: (LeaseContractLength, OfferingClass, PurchaseOption, USD/h)
    tuples, listed as the element's "Reserved" terms (none: no key)."""
    sku = sku or hashlib.sha1((region + itype).encode()).hexdigest()[:16].upper()
    term = sku + ".JRTCKXETXF"
    doc = {
        "product": {
            "productFamily": "Compute Instance",
            "attributes": {
                "instanceType": itype,
                "regionCode": region,
                "operatingSystem": "Linux",
                "tenancy": "Shared",
                "preInstalledSw": "NA",
                "capacitystatus": "Used",
                "licenseModel": "No License required",
                "servicecode": "AmazonEC2",
            },
            "sku": sku,
        },
        "serviceCode": "AmazonEC2",
        "terms": {
            "OnDemand": {
                term: {
                    "priceDimensions": {
                        term + ".6YS6EN2CT7": {
                            "unit": "Hrs",
                            "endRange": "Inf",
                            "description": "$%s per On Demand Linux %s "
                                           "Instance Hour" % (usd, itype),
                            "appliesTo": [],
                            "rateCode": term + ".6YS6EN2CT7",
                            "beginRange": "0",
                            "pricePerUnit": {"USD": usd},
                        }
                    },
                    "sku": sku,
                    "effectiveDate": "2026-11-01T00:00:00Z",
                    "offerTermCode": "JRTCKXETXF",
                    "termAttributes": {},
                }
            }
        },
        "version": "20261101000000",
        "publicationDate": "2026-11-01T00:00:00Z",
    }
    if reserved:
        doc["terms"]["Reserved"] = reserved_terms(sku, reserved)
    return json.dumps(doc, separators=(",", ":"))


# ---- SigV4 verification (independent of the C signer) --------------------

def _sign(key, msg):
    return hmac.new(key, msg.encode("utf-8"), hashlib.sha256).digest()


def _trimall(v):
    return " ".join(v.split())


def check_sigv4(handler, body, access_key, secret, token, service="pricing"):
    """Returns None when the Authorization header is right, else a reason."""
    want_service = service
    auth = handler.headers.get("Authorization", "")
    if not auth.startswith("AWS4-HMAC-SHA256 "):
        return "missing or non-SigV4 Authorization header"
    fields = {}
    for part in auth[len("AWS4-HMAC-SHA256 "):].split(","):
        k, _, v = part.strip().partition("=")
        fields[k] = v
    try:
        akid, date, region, service, term = fields["Credential"].split("/")
        signed = fields["SignedHeaders"].split(";")
        signature = fields["Signature"]
    except (KeyError, ValueError):
        return "malformed Authorization header"
    amz_date = handler.headers.get("X-Amz-Date", "")
    if akid != access_key:
        return "unknown access key"
    if (region, service, term) != ("us-east-1", want_service, "aws4_request"):
        return "wrong credential scope %s/%s/%s" % (region, service, term)
    if len(amz_date) != 16 or amz_date[:8] != date:
        return "X-Amz-Date does not match the credential scope"
    if "host" not in signed or "x-amz-date" not in signed:
        return "host and x-amz-date must be signed"
    if token is not None:
        if handler.headers.get("X-Amz-Security-Token") != token:
            return "missing or wrong X-Amz-Security-Token"
        if "x-amz-security-token" not in signed:
            return "x-amz-security-token must be signed"
    if signed != sorted(signed):
        return "SignedHeaders not sorted"
    path, _, query = handler.path.partition("?")
    canon_uri = urllib.parse.quote(path or "/", safe="/~")
    pairs = urllib.parse.parse_qsl(query, keep_blank_values=True)
    canon_query = "&".join(
        "%s=%s" % (urllib.parse.quote(k, safe="-_.~"),
                   urllib.parse.quote(v, safe="-_.~"))
        for k, v in sorted(pairs))
    canon_headers = ""
    for name in signed:
        values = handler.headers.get_all(name) or []
        if not values:
            return "signed header %s not sent" % name
        canon_headers += "%s:%s\n" % (name, ",".join(_trimall(v) for v in values))
    creq = "\n".join([handler.command, canon_uri, canon_query, canon_headers,
                      ";".join(signed), hashlib.sha256(body).hexdigest()])
    sts = "\n".join(["AWS4-HMAC-SHA256", amz_date,
                     "%s/%s/%s/aws4_request" % (date, region, service),
                     hashlib.sha256(creq.encode("utf-8")).hexdigest()])
    k = _sign(("AWS4" + secret).encode("utf-8"), date)
    k = _sign(k, region)
    k = _sign(k, service)
    k = _sign(k, "aws4_request")
    want = hmac.new(k, sts.encode("utf-8"), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(want, signature):
        return "signature mismatch"
    return None


# ---- server ---------------------------------------------------------------

def sp_rate_item(region, itype, plan, years, usd, usage=None):
    """One DescribeSavingsPlansOfferingRates search result (botocore
    savingsplans/2019-06-28 SavingsPlanOfferingRate)."""
    prefix = "" if region == "us-east-1" else "USW2-"
    return {
        "savingsPlanOffering": {
            "offeringId": hashlib.sha1(("%s%s%d" % (region, plan, years)).encode()).hexdigest()[:32],
            "paymentOption": "No Upfront", "planType": plan,
            "durationSeconds": 31536000 * years, "currency": "USD",
            "planDescription": "%d year No Upfront %s" % (years, plan)},
        "rate": usd, "unit": "Hrs", "productType": "EC2",
        "serviceCode": "AmazonEC2",
        "usageType": usage or "%sBoxUsage:%s" % (prefix, itype),
        "operation": "RunInstances",
        "properties": [{"name": "region", "value": region},
                       {"name": "instanceType", "value": itype},
                       {"name": "instanceFamily", "value": itype.split(".")[0]},
                       {"name": "productDescription", "value": "Linux/UNIX"},
                       {"name": "tenancy", "value": "shared"}],
    }


class State:
    def __init__(self, args):
        self.args = args
        self.lock = threading.Lock()
        self.posts = 0
        with open(os.path.join(args.data, "ondemand.json")) as f:
            self.ondemand = json.load(f)
        # Reserved terms per region and type (optional file)
        self.reserved = {}
        if os.path.exists(os.path.join(args.data, "reserved.json")):
            with open(os.path.join(args.data, "reserved.json")) as f:
                self.reserved = json.load(f)
        if args.scenario == "reservedhigh":
            self.reserved.setdefault("us-east-1", {})["m5.large"] = [
                ["1yr", "standard", "No Upfront", "0.1200000000"]]
        # Savings Plan rates: region -> type -> plan -> years -> USD/h
        self.savings_plans = {}
        if os.path.exists(os.path.join(args.data, "savings_plans.json")):
            with open(os.path.join(args.data, "savings_plans.json")) as f:
                self.savings_plans = json.load(f)
        sp_e1 = self.savings_plans.setdefault("us-east-1", {})
        for plan in sp_e1.get("p4d.24xlarge", {}).values():
            if args.scenario == "sphigh":  # both plans: the lower one is taken
                plan["1"] = "25.0000000000"
            if args.scenario == "sp3over1":
                plan["3"] = "16.0000000000"
        if args.scenario == "odcut":
            sp_e1.pop("p4d.24xlarge", None)
        spot_name = "spot_half.json" if args.scenario == "spothalf" else "spot.json"
        with open(os.path.join(args.data, spot_name), "rb") as f:
            self.spot = f.read()
        if args.scenario == "spotrange":
            feed = json.loads(self.spot)
            feed["spot_advisor"]["us-east-1"]["Linux"]["t3.micro"]["s"] = 97
            self.spot = json.dumps(feed).encode()
        if args.scenario == "big":
            feed = json.loads(self.spot)
            feed["padding"] = "x" * (2 * 1024 * 1024)
            self.spot = json.dumps(feed).encode()

    def log(self, line):
        if self.args.log:
            with self.lock, open(self.args.log, "a") as f:
                f.write(line + "\n")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "fake_aws/1"

    def log_message(self, fmt, *args):  # quiet: the test reads --log
        pass

    def reply(self, status, body, ctype="application/x-amz-json-1.1",
              extra=None):
        if isinstance(body, str):
            body = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    # ---- credential endpoints ----

    def cred_fail(self, kind):
        """The failure scenarios, or None to answer normally."""
        sc = self.server.state.args.scenario
        if sc == "cred403":
            if kind == "sts":
                self.reply(403, "<ErrorResponse><Error><Type>Sender</Type>"
                           "<Code>AccessDenied</Code><Message>Not authorized "
                           "to perform sts:AssumeRole</Message></Error>"
                           "</ErrorResponse>", "text/xml")
            else:
                self.reply(403, json.dumps({"message": "forbidden"}),
                           "application/json")
            return True
        if sc == "credbad":
            if kind == "sts":
                self.reply(200, "<AssumeRoleResponse><AssumeRoleResult>"
                           "</AssumeRoleResult></AssumeRoleResponse>",
                           "text/xml")
            else:
                self.reply(200, "<html>not json</html>", "text/html")
            return True
        return False

    def expiration(self):
        sc = self.server.state.args.scenario
        return ("2020-01-01T00:00:00Z" if sc == "credexpired"
                else time.strftime("%Y-%m-%dT%H:%M:%SZ",
                                   time.gmtime(time.time() + 3600)))

    def json_creds(self):
        a = self.server.state.args
        return {"Code": "Success", "Type": "AWS-HMAC",
                "AccessKeyId": a.access_key, "SecretAccessKey": a.secret,
                "Token": a.token or "", "Expiration": self.expiration()}

    def sts(self, body):
        st = self.server.state
        a = st.args
        form = dict(urllib.parse.parse_qsl(body.decode(), keep_blank_values=True))
        action = form.get("Action", "")
        if action == "AssumeRoleWithWebIdentity":
            ok = ("Authorization" not in self.headers and
                  form.get("WebIdentityToken") == a.web_token and
                  form.get("RoleArn", "").startswith("arn:aws:iam::") and
                  form.get("RoleSessionName") and
                  form.get("Version") == "2011-06-15")
            st.log("STS %s role=%s session=%s ok=%s" % (
                action, form.get("RoleArn"), form.get("RoleSessionName"),
                "yes" if ok else "no"))
        elif action == "AssumeRole":
            reason = check_sigv4(self, body, a.source_key, a.source_secret,
                                 None, "sts")
            if reason is not None and self.headers.get("X-Amz-Security-Token"):
                # a role chain: signed with credentials this server issued
                reason = check_sigv4(self, body, a.access_key, a.secret,
                                     a.token, "sts")
            ok = reason is None and form.get("RoleArn", "").startswith(
                "arn:aws:iam::")
            st.log("STS %s role=%s session=%s external=%s sig=%s" % (
                action, form.get("RoleArn"), form.get("RoleSessionName"),
                form.get("ExternalId", "-"), "ok" if reason is None else reason))
        else:
            self.reply(400, "<ErrorResponse><Error><Code>InvalidAction"
                       "</Code></Error></ErrorResponse>", "text/xml")
            return
        if self.cred_fail("sts"):
            return
        if not ok:
            self.reply(403, "<ErrorResponse><Error><Type>Sender</Type><Code>"
                       "AccessDenied</Code><Message>request refused by "
                       "fake_aws</Message></Error></ErrorResponse>",
                       "text/xml")
            return
        res = action + "Result"
        xml = ("<%sResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\">"
               "<%s><Credentials><AccessKeyId>%s</AccessKeyId>"
               "<SecretAccessKey>%s</SecretAccessKey>"
               "<SessionToken>%s</SessionToken>"
               "<Expiration>%s</Expiration></Credentials>"
               "<AssumedRoleUser><Arn>%s</Arn></AssumedRoleUser></%s>"
               "</%sResponse>") % (action, res, a.access_key,
                                   a.secret.replace("&", "&amp;"), a.token,
                                   self.expiration(), form.get("RoleArn"),
                                   res, action)
        self.reply(200, xml, "text/xml")

    def do_PUT(self):
        st = self.server.state
        n = int(self.headers.get("Content-Length", "0"))
        self.rfile.read(n)
        ttl = self.headers.get("X-aws-ec2-metadata-token-ttl-seconds")
        st.log("PUT %s ttl=%s" % (self.path, ttl))
        if self.path != "/latest/api/token" or not ttl:
            self.reply(400, "bad request", "text/plain")
            return
        self.reply(200, st.args.imds_token, "text/plain")

    def credential_get(self):
        """GETs of IMDS, the container endpoint and the SSO portal; True
        when the path was one of theirs."""
        st = self.server.state
        a = st.args
        path, _, query = self.path.partition("?")
        base = "/latest/meta-data/iam/security-credentials/"
        if path.startswith(base):
            ok = self.headers.get("X-aws-ec2-metadata-token") == a.imds_token
            st.log("IMDS GET %s token=%s" % (path, "ok" if ok else "bad"))
            if not ok:
                self.reply(401, "", "text/plain")
            elif path == base and a.scenario != "cred403":
                self.reply(200, "ec2fit-test-role", "text/plain")
            elif self.cred_fail("imds"):
                pass
            elif path == base + "ec2fit-test-role":
                self.reply(200, json.dumps(self.json_creds()), "text/plain")
            else:
                self.reply(404, "", "text/plain")
            return True
        if path == "/ecs/creds":
            ok = self.headers.get("Authorization") == a.container_token
            st.log("ECS GET %s auth=%s" % (path, "ok" if ok else "bad"))
            if not ok:
                self.reply(401, json.dumps({"message": "bad token"}),
                           "application/json")
            elif not self.cred_fail("ecs"):
                c = self.json_creds()
                del c["Code"], c["Type"]
                self.reply(200, json.dumps(c), "application/json")
            return True
        if path == "/federation/credentials":
            q = dict(urllib.parse.parse_qsl(query))
            ok = (self.headers.get("x-amz-sso_bearer_token") == a.sso_token
                  and q.get("account_id") == "123456789012"
                  and q.get("role_name") == "PricingRead")
            st.log("SSO GET %s account=%s role=%s token=%s" % (
                path, q.get("account_id"), q.get("role_name"),
                "ok" if ok else "bad"))
            if not ok:
                self.reply(401, json.dumps({"message": "Session token not "
                                            "found or invalid"}),
                           "application/json")
            elif not self.cred_fail("sso"):
                exp = (1577836800000 if a.scenario == "credexpired"
                       else int((time.time() + 3600) * 1000))
                self.reply(200, json.dumps({"roleCredentials": {
                    "accessKeyId": a.access_key,
                    "secretAccessKey": a.secret,
                    "sessionToken": a.token, "expiration": exp}}),
                    "application/json")
            return True
        return False

    def do_GET(self):
        st = self.server.state
        ua = self.headers.get("User-Agent", "")
        st.log("GET %s ua=%s auth=%s" % (self.path, ua,
                                         "yes" if "Authorization" in self.headers else "no"))
        if self.credential_get():
            return
        if self.path != "/spot-advisor-data.json":
            self.reply(404, "not found", "text/plain")
            return
        if "Authorization" in self.headers:
            self.reply(403, "<Error><Code>AccessDenied</Code></Error>",
                       "application/xml")
            return
        self.reply(200, st.spot, "application/json",
                   {"Last-Modified": email.utils.formatdate(
                       st.args.last_modified or time.time(), usegmt=True)})

    def savings_plans(self, body):
        """POST /DescribeSavingsPlansOfferingRates (rest-json)."""
        st = self.server.state
        args = st.args
        reason = check_sigv4(self, body, args.access_key, args.secret,
                             args.token, "savingsplans")
        try:
            req = json.loads(body)
        except ValueError:
            req = {}
        filters = {f.get("name"): f.get("values") for f in req.get("filters", [])}
        region = (filters.get("region") or [""])[0]
        st.log("SP POST %s region=%s token=%s sig=%s ua=%s" % (
            self.path, region, req.get("nextToken", "-"),
            "ok" if reason is None else "bad", self.headers.get("User-Agent", "")))
        if reason is not None:
            sys.stderr.write("fake_aws: %s\n" % reason)
            self.reply(403, json.dumps({"message": SIG_MISMATCH}),
                       "application/json",
                       {"x-amzn-ErrorType": "InvalidSignatureException"})
            return
        if args.scenario == "spdenied":
            self.reply(403, json.dumps({
                "Message": "User: arn:aws:iam::123456789012:user/ci is not "
                           "authorized to perform: savingsplans:"
                           "DescribeSavingsPlansOfferingRates because no "
                           "identity-based policy allows the savingsplans:"
                           "DescribeSavingsPlansOfferingRates action"}),
                "application/json",
                {"x-amzn-ErrorType": "AccessDeniedException:http://internal."
                                     "amazon.com/coral/com.amazon.coral.service/"})
            return
        if args.scenario == "spdenied400":
            self.reply(400, json.dumps({"__type": "AccessDeniedException",
                                        "message": "not authorized"}),
                       "application/json")
            return
        if self.headers.get("X-Amz-Target") is not None or \
                self.headers.get("Content-Type") != "application/json" or \
                req.get("products") != ["EC2"] or \
                req.get("serviceCodes") != ["AmazonEC2"] or \
                req.get("savingsPlanPaymentOptions") != ["No Upfront"] or \
                sorted(req.get("savingsPlanTypes", [])) != ["Compute", "EC2Instance"] or \
                filters.get("tenancy") != ["shared"] or \
                filters.get("productDescription") != ["Linux/UNIX"] or \
                len(filters.get("region") or []) != 1:
            self.reply(400, json.dumps({"message": "bad request %r" % req}),
                       "application/json")
            return
        if args.scenario == "spbadjson":
            self.reply(200, '{"searchResults": [', "application/json")
            return
        items = []
        for itype, plans in sorted(st.savings_plans.get(region, {}).items()):
            for plan, terms in sorted(plans.items()):
                for years, usd in sorted(terms.items()):
                    items.append(sp_rate_item(region, itype, plan, int(years), usd))
            # an unused reservation's hours: not a running instance's rate
            items.append(sp_rate_item(region, itype, "EC2Instance", 1,
                                      "0.0010000000", "UnusedBox:" + itype))
        if args.scenario == "spbadrate" and items:
            items[0]["rate"] = "1e3"
        tok = req.get("nextToken")
        start = int(base64.b64decode(tok).decode().rpartition(":")[2]) if tok else 0
        out = {"searchResults": items[start:start + args.sp_page_size]}
        if start + args.sp_page_size < len(items):
            out["nextToken"] = base64.b64encode(
                ("%s:%d" % (region, start + args.sp_page_size)).encode()).decode()
        self.reply(200, json.dumps(out), "application/json")

    def do_POST(self):
        st = self.server.state
        args = st.args
        n = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(n)
        if self.path == "/DescribeSavingsPlansOfferingRates":
            self.savings_plans(body)
            return
        if self.headers.get("Content-Type", "").startswith(
                "application/x-www-form-urlencoded"):
            self.sts(body)
            return
        with st.lock:
            st.posts += 1
            count = st.posts
        reason = check_sigv4(self, body, args.access_key, args.secret,
                             args.token)
        try:
            req = json.loads(body)
        except ValueError:
            req = {}
        filters = {f.get("Field"): f.get("Value") for f in req.get("Filters", [])
                   if f.get("Type") == "TERM_MATCH"}
        region = filters.get("regionCode", "")
        st.log("POST %s region=%s token=%s sig=%s target=%s ua=%s" % (
            self.path, region, req.get("NextToken", "-"),
            "ok" if reason is None else "bad",
            self.headers.get("X-Amz-Target", ""), self.headers.get("User-Agent", "")))
        if self.headers.get("X-Amz-Target") != "AWSPriceListService.GetProducts" \
                or self.headers.get("Content-Type") != "application/x-amz-json-1.1":
            self.reply(400, json.dumps({"__type": "UnknownOperationException"}))
            return
        if reason is not None:
            sys.stderr.write("fake_aws: %s\n" % reason)
            self.reply(403, json.dumps({"__type": "InvalidSignatureException",
                                        "message": SIG_MISMATCH}))
            return
        expect = {"operatingSystem": "Linux", "tenancy": "Shared",
                  "preInstalledSw": "NA", "capacitystatus": "Used",
                  "licenseModel": "No License required"}
        if req.get("ServiceCode") != "AmazonEC2" or \
                req.get("FormatVersion") != "aws_v1" or \
                any(filters.get(k) != v for k, v in expect.items()):
            self.reply(400, json.dumps({"__type": "InvalidParameterException",
                                        "message": "bad filters %r" % filters}))
            return
        sc = args.scenario
        if sc == "retryafter" and count == 1:
            self.reply(429, json.dumps({"__type": "ThrottlingException",
                                        "message": "Rate exceeded"}),
                       extra={"Retry-After": "2"})
            return
        if sc == "redirect":
            self.reply(307, "", extra={
                "Location": "http://elsewhere.invalid/?X-Amz-Signature=abc"})
            return
        if sc == "retry500" and count == 1:
            self.reply(500, json.dumps({"__type": "InternalErrorException",
                                        "message": "try again"}))
            return
        if sc == "stall":
            time.sleep(args.lifetime)
            return
        if sc == "badjson":
            self.reply(200, '{"FormatVersion": "aws_v1", "PriceList": [')
            return
        prices = st.ondemand.get(region, {})
        items = []
        for itype in sorted(prices):
            usd = prices[itype]
            if sc == "bigmove" and itype == "p4d.24xlarge":
                usd = "%.10f" % (float(usd) * 10)
            if sc in ("odcut", "spdenied", "spdenied400") and \
                    itype == "p4d.24xlarge" and \
                    region == "us-east-1":
                usd = "12.0000000000"
            if sc == "newfar" and itype == "m5.large" and region == "us-west-2":
                usd = "%.10f" % (float(usd) * 10)
            items.append(price_item(region, itype, usd, reserved=[
                tuple(t) for t in st.reserved.get(region, {}).get(itype, [])]))
        if sc == "capblock" and region == "us-east-1" and "p4d.24xlarge" in prices:
            # its own product, as the Price List lists Capacity Blocks
            cb = json.loads(price_item(region, "p4d.24xlarge", "14.7500000000",
                                       sku="CAPBLOCKP4D24XL1"))
            cb["product"]["attributes"]["marketoption"] = "CapacityBlock"
            items.append(json.dumps(cb))
        if sc == "badinner":
            items.insert(1, '{"product": {"attributes": ')
        start = int(req.get("NextToken", "0").rpartition("-")[2] or 0) \
            if req.get("NextToken") else 0
        page = items[start:start + args.page_size]
        out = {"FormatVersion": "aws_v1", "PriceList": page}
        if start + args.page_size < len(items):
            out["NextToken"] = "page-%s-%d" % (region, start + args.page_size)
        if sc == "tokenloop" and start == 2 * args.page_size:
            out["NextToken"] = "page-%s-%d" % (region, args.page_size)
        data = json.dumps(out).encode()
        if sc == "truncated":
            self.send_response(200)
            self.send_header("Content-Type", "application/x-amz-json-1.1")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data[: len(data) // 2])
            self.wfile.flush()
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_WR)
            return
        if sc == "drop":
            self.send_response(200)
            self.send_header("Content-Type", "application/x-amz-json-1.1")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            half = data[: len(data) // 2]
            self.wfile.write(b"%x\r\n%s\r\n" % (len(data), half))
            self.wfile.flush()
            # RST instead of FIN: the peer sees "connection reset".
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                       struct.pack("ii", 1, 0))
            self.close_connection = True
            self.connection.close()
            return
        self.reply(200, data)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--data", required=True, help="fixtures/pricing folder")
    ap.add_argument("--scenario", default="ok")
    ap.add_argument("--lifetime", type=float, default=30.0)
    ap.add_argument("--page-size", type=int, default=3)
    ap.add_argument("--sp-page-size", type=int, default=4)
    ap.add_argument("--log")
    ap.add_argument("--access-key", default="AKIDTESTEXAMPLE")
    ap.add_argument("--secret", default="test/secret+KEY")
    ap.add_argument("--token", default=None)
    ap.add_argument("--web-token", default="oidc-jwt-secret-value")
    ap.add_argument("--source-key", default="AKIDSOURCEEXAMPLE")
    ap.add_argument("--source-secret", default="source/secret+KEY")
    ap.add_argument("--imds-token", default="imds-session-secret")
    ap.add_argument("--container-token", default="ecs-auth-secret")
    ap.add_argument("--sso-token", default="sso-access-secret")
    ap.add_argument("--last-modified", type=float, default=0,
                    help="Last-Modified of the spot feed, epoch (0 = now)")
    args = ap.parse_args()

    # The process ends after --lifetime seconds no matter what the handler
    # threads are doing (a stalled reply included).
    threading.Timer(args.lifetime, lambda: os._exit(0)).start()

    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    srv.daemon_threads = True
    srv.state = State(args)
    tmp = args.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write(str(srv.server_address[1]))
    os.rename(tmp, args.port_file)
    srv.serve_forever()


if __name__ == "__main__":
    main()
