#!/usr/bin/env python3
"""Validates ec2fit's deploy outputs against the AWS API input shapes in
the botocore service models vendored in tests/fixtures/botocore (botocore
1.43.67, provenance in SOURCE.md), not the models of whatever botocore is
installed: Debian 12's python3-botocore (1.29.27) predates members such as
ECS's managedDraining. botocore's ServiceModel and ParamValidator read the
vendored JSON; no client is made, no credentials are read, offline.

  validate_aws.py ecs FILE         taskDefinition  -> ecs RegisterTaskDefinition
                                   capacityProvider -> ecs CreateCapacityProvider
                                   service          -> ecs CreateService
                                   scalableTarget  -> application-autoscaling
                                                      RegisterScalableTarget
                                   scalingPolicy   -> application-autoscaling
                                                      PutScalingPolicy
  validate_aws.py cloudwatch FILE  alarms[i]       -> cloudwatch PutMetricAlarm
                                   event_rules[i]  -> events PutRule
                                   event_targets[i] -> events PutTargets

Prints one line per validated input and exits 1 on the first invalid one
(botocore's report), 2 on bad usage or a missing key.
"""
import json
import os
import sys

from botocore.model import ServiceModel
from botocore.validate import ParamValidator

MODELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "botocore")
# service name -> API version directory, as botocore/data/<service>/<version>
VERSIONS = {"ecs": "2014-11-13", "cloudwatch": "2010-08-01", "events": "2015-10-07",
            "application-autoscaling": "2016-02-06"}


def shape(models, service, operation):
    if service not in models:
        path = os.path.join(MODELS, service, VERSIONS[service], "service-2.json")
        with open(path, encoding="utf-8") as f:
            models[service] = ServiceModel(json.load(f), service_name=service)
    return models[service].operation_model(operation).input_shape


def validate(models, service, operation, params, label):
    report = ParamValidator().validate(params, shape(models, service, operation))
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
    models = {}
    try:
        if sys.argv[1] == "ecs":
            validate(models, "ecs", "RegisterTaskDefinition", doc["taskDefinition"], "taskDefinition")
            validate(models, "ecs", "CreateCapacityProvider", doc["capacityProvider"], "capacityProvider")
            validate(models, "ecs", "CreateService", doc["service"], "service")
            validate(models, "application-autoscaling", "RegisterScalableTarget",
                     doc["scalableTarget"], "scalableTarget")
            validate(models, "application-autoscaling", "PutScalingPolicy",
                     doc["scalingPolicy"], "scalingPolicy")
        else:
            if not doc["alarms"] or not doc["event_rules"]:
                print("no alarms or no event rules", file=sys.stderr)
                sys.exit(2)
            for i, a in enumerate(doc["alarms"]):
                validate(models, "cloudwatch", "PutMetricAlarm", a, f"alarms[{i}] {a.get('AlarmName')}")
            for i, r in enumerate(doc["event_rules"]):
                validate(models, "events", "PutRule", r, f"event_rules[{i}] {r.get('Name')}")
                json.loads(r["EventPattern"])  # a pattern is a JSON string
            for i, t in enumerate(doc["event_targets"]):
                validate(models, "events", "PutTargets", t, f"event_targets[{i}] {t.get('Rule')}")
    except KeyError as e:
        print(f"missing key {e}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
