#!/usr/bin/env python3
"""Validates ec2fit's deploy outputs against the AWS API input shapes in
botocore's service models (Debian python3-botocore). Offline: botocore
reads its models from disk; no client is made, no credentials are read.

  validate_aws.py ecs FILE         taskDefinition  -> ecs RegisterTaskDefinition
                                   capacityProvider -> ecs CreateCapacityProvider
                                   service          -> ecs CreateService
  validate_aws.py cloudwatch FILE  alarms[i]       -> cloudwatch PutMetricAlarm
                                   event_rules[i]  -> events PutRule

Prints one line per validated input and exits 1 on the first invalid one
(botocore's report), 2 on bad usage or a missing key.
"""
import json
import sys

import botocore.session
from botocore.validate import ParamValidator


def shape(session, service, operation):
    return session.get_service_model(service).operation_model(operation).input_shape


def validate(session, service, operation, params, label):
    report = ParamValidator().validate(params, shape(session, service, operation))
    if report.has_errors():
        print(f"{label}: invalid {service} {operation} input:\n{report.generate_report()}")
        sys.exit(1)
    print(f"{label}: valid {service} {operation} input")


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("ecs", "cloudwatch"):
        print(__doc__.strip(), file=sys.stderr)
        sys.exit(2)
    with open(sys.argv[2]) as f:
        doc = json.load(f)
    session = botocore.session.get_session()
    try:
        if sys.argv[1] == "ecs":
            validate(session, "ecs", "RegisterTaskDefinition", doc["taskDefinition"], "taskDefinition")
            validate(session, "ecs", "CreateCapacityProvider", doc["capacityProvider"], "capacityProvider")
            validate(session, "ecs", "CreateService", doc["service"], "service")
        else:
            if not doc["alarms"] or not doc["event_rules"]:
                print("no alarms or no event rules", file=sys.stderr)
                sys.exit(2)
            for i, a in enumerate(doc["alarms"]):
                validate(session, "cloudwatch", "PutMetricAlarm", a, f"alarms[{i}] {a.get('AlarmName')}")
            for i, r in enumerate(doc["event_rules"]):
                validate(session, "events", "PutRule", r, f"event_rules[{i}] {r.get('Name')}")
                json.loads(r["EventPattern"])  # a pattern is a JSON string
    except KeyError as e:
        print(f"missing key {e}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
