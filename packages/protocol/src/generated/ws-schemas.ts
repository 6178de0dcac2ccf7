// DO NOT EDIT. Generated from schema/ws/*.schema.json by `pnpm gen` (scripts/gen.ts).
// `pnpm gen:check` (part of the test command) fails when this file is stale.

export const envelopeSchema = {
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://drover.dev/schema/ws/envelope.schema.json",
  "title": "Envelope",
  "description": "Every WebSocket frame between scheduler and worker. The payload is validated by the schema named after `type`.",
  "type": "object",
  "additionalProperties": false,
  "required": [
    "type",
    "id",
    "ts",
    "tenant",
    "sender",
    "payload"
  ],
  "properties": {
    "type": {
      "title": "MessageType",
      "type": "string",
      "enum": [
        "handshake",
        "register",
        "heartbeat",
        "ack",
        "cmd.dispatch",
        "cmd.cancel",
        "cmd.drain",
        "result",
        "feedback",
        "command.error",
        "pkg.install",
        "pkg.uninstall",
        "pkg.event",
        "error"
      ]
    },
    "id": {
      "description": "Unique frame id (UUID). A resent frame keeps its id; receivers dedupe by it.",
      "type": "string",
      "format": "uuid",
      "maxLength": 36
    },
    "ts": {
      "description": "Sender's clock, RFC 3339.",
      "type": "string",
      "format": "date-time",
      "maxLength": 40
    },
    "tenant": {
      "type": "string",
      "pattern": "^[a-z0-9][a-z0-9_-]{0,62}$",
      "maxLength": 63
    },
    "sender": {
      "title": "Sender",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "role",
        "id"
      ],
      "properties": {
        "role": {
          "type": "string",
          "enum": [
            "scheduler",
            "worker"
          ]
        },
        "id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 128
        }
      }
    },
    "corr": {
      "description": "Correlation id: the task id or command this frame belongs to.",
      "type": "string",
      "maxLength": 128
    },
    "seq": {
      "description": "Per-session sequence number of the sender.",
      "type": "integer",
      "minimum": 0,
      "maximum": 9007199254740991
    },
    "ack": {
      "title": "AckField",
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "for": {
          "description": "Id of the frame this frame acknowledges.",
          "type": "string",
          "format": "uuid",
          "maxLength": 36
        },
        "request": {
          "description": "The sender wants an `ack` frame for this one and resends it until it gets one.",
          "type": "boolean"
        }
      }
    },
    "payload": {
      "type": "object",
      "additionalProperties": true
    }
  }
} as const;

export const commonSchema = {
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://drover.dev/schema/ws/common.schema.json",
  "title": "Common",
  "description": "Definitions shared by several messages.",
  "$defs": {
    "uuid": {
      "type": "string",
      "format": "uuid",
      "maxLength": 36
    },
    "errorCode": {
      "type": "string",
      "pattern": "^E(\\.[A-Z][A-Z0-9_]*)+$",
      "maxLength": 80
    },
    "packageRef": {
      "title": "PackageRef",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "name",
        "version"
      ],
      "properties": {
        "name": {
          "type": "string",
          "pattern": "^[a-z0-9][a-z0-9._-]{0,99}$",
          "maxLength": 100
        },
        "version": {
          "type": "string",
          "pattern": "^[0-9]+\\.[0-9]+\\.[0-9]+(-[0-9A-Za-z.-]+)?(\\+[0-9A-Za-z.-]+)?$",
          "maxLength": 64
        }
      }
    },
    "errorInfo": {
      "title": "ErrorInfo",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "code",
        "message"
      ],
      "properties": {
        "code": {
          "$ref": "#/$defs/errorCode"
        },
        "message": {
          "type": "string",
          "maxLength": 4000
        },
        "step": {
          "description": "Which step of the node failed (e.g. `click #submit`).",
          "type": "string",
          "maxLength": 500
        },
        "details": {
          "type": "object",
          "additionalProperties": true
        }
      }
    }
  }
} as const;

export const ackSchema = {
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://drover.dev/schema/ws/ack.schema.json",
  "title": "AckPayload",
  "description": "Acknowledges the frame named in the envelope's `ack.for`. `duplicate` says the frame was seen before and not applied again.",
  "type": "object",
  "additionalProperties": false,
  "required": [
    "status"
  ],
  "properties": {
    "status": {
      "type": "string",
      "enum": [
        "ok",
        "duplicate",
        "stale"
      ]
    }
  }
} as const;

export const cmdCancelSchema = {
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://drover.dev/schema/ws/cmd.cancel.schema.json",
  "title": "CancelPayload",
  "description": "Scheduler → worker (with ack.request): abort an attempt; the handler's AbortSignal fires.",
  "type": "object",
  "additionalProperties": false,
  "required": [
    "run_id",
    "task_id",
    "attempt",
    "reason"
  ],
  "properties": {
    "run_id": {
      "$ref": "common.schema.json#/$defs/uuid"
    },
    "task_id": {
      "$ref": "common.schema.json#/$defs/uuid"
    },
    "attempt": {
      "type": "integer",
      "minimum": 1
    },
    "reason": {
      "type": "string",
      "maxLength": 500
    }
  }
} as const;

export const cmdDispatchSchema = {
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://drover.dev/schema/ws/cmd.dispatch.schema.json",
  "title": "DispatchPayload",
  "description": "Scheduler → worker (with ack.request): run one attempt of one node. Sent only after the task row says `dispatched`.",
  "type": "object",
  "additionalProperties": false,
  "required": [
    "run_id",
    "task_id",
    "node_id",
    "attempt",
    "dispatch_id",
    "node",
    "parameters",
    "timeout_ms"
  ],
  "properties": {
    "run_id": {
      "$ref": "common.schema.json#/$defs/uuid"
    },
    "task_id": {
      "$ref": "common.schema.json#/$defs/uuid"
    },
    "node_id": {
      "$ref": "common.schema.json#/$defs/uuid"
    },
    "attempt": {
      "type": "integer",
      "minimum": 1
    },
    "dispatch_id": {
      "$ref": "common.schema.json#/$defs/uuid"
    },
    "node": {
      "title": "DispatchNode",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "type",
        "package"
      ],
      "properties": {
        "type": {
          "type": "string",
          "maxLength": 128
        },
        "package": {
          "$ref": "common.schema.json#/$defs/packageRef"
        },
        "label": {
          "type": "string",
          "maxLength": 256
        }
      }
    },
    "parameters": {
      "type": "object",
      "additionalProperties": true
    },
    "timeout_ms": {
      "type": "integer",
      "minimum": 1,
      "maximum": 86400000
    }
  }
} as const;

export const cmdDrainSchema = {
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://drover.dev/schema/ws/cmd.drain.schema.json",
  "title": "DrainPayload",
  "description": "Scheduler → worker (with ack.request): take no new work, finish what is running.",
  "type": "object",
  "additionalProperties": false,
  "required": [
    "reason"
  ],
  "properties": {
    "reason": {
      "type": "string",
      "maxLength": 500
    },
    "deadline_ms": {
      "type": "integer",
      "minimum": 0
    }
  }
} as const;

export const commandErrorSchema = {
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://drover.dev/schema/ws/command.error.schema.json",
  "title": "CommandErrorPayload",
  "description": "Worker → scheduler (with ack.request): a command could not be taken at all (no handler, over capacity, draining). The attempt did not start.",
  "type": "object",
  "additionalProperties": false,
  "required": [
    "command_id",
    "command_type",
    "code",
    "message"
  ],
  "properties": {
    "command_id": {
      "$ref": "common.schema.json#/$defs/uuid"
    },
    "command_type": {
      "type": "string",
      "enum": [
        "cmd.dispatch",
        "cmd.cancel",
        "cmd.drain",
        "pkg.install",
        "pkg.uninstall"
      ]
    },
    "run_id": {
      "$ref": "common.schema.json#/$defs/uuid"
    },
    "task_id": {
      "$ref": "common.schema.json#/$defs/uuid"
    },
    "attempt": {
      "type": "integer",
      "minimum": 1
    },
    "dispatch_id": {
      "$ref": "common.schema.json#/$defs/uuid"
    },
    "code": {
      "$ref": "common.schema.json#/$defs/errorCode"
    },
    "message": {
      "type": "string",
      "maxLength": 4000
    }
  }
} as const;

export const errorSchema = {
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://drover.dev/schema/ws/error.schema.json",
  "title": "ErrorPayload",
  "description": "Either side: a frame was refused (bad JSON, too big, unknown type, schema violation, not allowed now). `for` names the refused frame when its id could be read.",
  "type": "object",
  "additionalProperties": false,
  "required": [
    "code",
    "message"
  ],
  "properties": {
    "code": {
      "$ref": "common.schema.json#/$defs/errorCode"
    },
    "message": {
      "type": "string",
      "maxLength": 4000
    },
    "for": {
      "type": "string",
      "maxLength": 36
    },
    "pointer": {
      "description": "JSON pointer to the offending part of the frame.",
      "type": "string",
      "maxLength": 1000
    },
    "fatal": {
      "description": "The sender closes the socket after this frame.",
      "type": "boolean"
    }
  }
} as const;

export const feedbackSchema = {
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://drover.dev/schema/ws/feedback.schema.json",
  "title": "FeedbackPayload",
  "description": "Worker → scheduler: a log line or progress update from a running attempt (best effort, no ACK).",
  "type": "object",
  "additionalProperties": false,
  "required": [
    "run_id",
    "task_id",
    "node_id",
    "attempt",
    "kind",
    "message"
  ],
  "properties": {
    "run_id": {
      "$ref": "common.schema.json#/$defs/uuid"
    },
    "task_id": {
      "$ref": "common.schema.json#/$defs/uuid"
    },
    "node_id": {
      "$ref": "common.schema.json#/$defs/uuid"
    },
    "attempt": {
      "type": "integer",
      "minimum": 1
    },
    "kind": {
      "type": "string",
      "enum": [
        "log",
        "progress"
      ]
    },
    "level": {
      "type": "string",
      "enum": [
        "debug",
        "info",
        "warn",
        "error"
      ]
    },
    "message": {
      "type": "string",
      "maxLength": 8000
    },
    "progress": {
      "type": "number",
      "minimum": 0,
      "maximum": 1
    },
    "data": {
      "type": "object",
      "additionalProperties": true
    }
  }
} as const;

export const handshakeSchema = {
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://drover.dev/schema/ws/handshake.schema.json",
  "title": "HandshakePayload",
  "description": "First frame each way. The worker says hello with the protocol versions it speaks; the scheduler answers welcome with the chosen version and session parameters.",
  "oneOf": [
    {
      "title": "HandshakeHello",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "kind",
        "protocols",
        "worker_id",
        "worker_version"
      ],
      "properties": {
        "kind": {
          "const": "hello"
        },
        "protocols": {
          "type": "array",
          "items": {
            "type": "integer",
            "minimum": 1,
            "maximum": 1000
          },
          "minItems": 1,
          "maxItems": 16
        },
        "worker_id": {
          "type": "string",
          "pattern": "^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$",
          "maxLength": 128
        },
        "worker_version": {
          "type": "string",
          "maxLength": 64
        }
      }
    },
    {
      "title": "HandshakeWelcome",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "kind",
        "protocol",
        "session_id",
        "heartbeat_interval_ms",
        "ack_timeout_ms",
        "max_payload_bytes"
      ],
      "properties": {
        "kind": {
          "const": "welcome"
        },
        "protocol": {
          "type": "integer",
          "minimum": 1,
          "maximum": 1000
        },
        "session_id": {
          "$ref": "common.schema.json#/$defs/uuid"
        },
        "heartbeat_interval_ms": {
          "type": "integer",
          "minimum": 100,
          "maximum": 600000
        },
        "ack_timeout_ms": {
          "type": "integer",
          "minimum": 10,
          "maximum": 600000
        },
        "max_payload_bytes": {
          "type": "integer",
          "minimum": 1024
        }
      }
    }
  ]
} as const;

export const heartbeatSchema = {
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://drover.dev/schema/ws/heartbeat.schema.json",
  "title": "HeartbeatPayload",
  "description": "Worker → scheduler every heartbeat interval.",
  "type": "object",
  "additionalProperties": false,
  "required": [
    "state",
    "running"
  ],
  "properties": {
    "state": {
      "type": "string",
      "enum": [
        "idle",
        "busy",
        "draining"
      ]
    },
    "running": {
      "type": "integer",
      "minimum": 0
    },
    "rss_bytes": {
      "type": "integer",
      "minimum": 0
    },
    "load1": {
      "type": "number",
      "minimum": 0
    }
  }
} as const;

export const pkgEventSchema = {
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://drover.dev/schema/ws/pkg.event.schema.json",
  "title": "PkgEventPayload",
  "description": "Worker → scheduler (with ack.request): progress and outcome of a package install or uninstall.",
  "type": "object",
  "additionalProperties": false,
  "required": [
    "name",
    "version",
    "status"
  ],
  "properties": {
    "name": {
      "$ref": "common.schema.json#/$defs/packageRef/properties/name"
    },
    "version": {
      "$ref": "common.schema.json#/$defs/packageRef/properties/version"
    },
    "status": {
      "type": "string",
      "enum": [
        "installing",
        "installed",
        "failed",
        "uninstalled"
      ]
    },
    "error": {
      "$ref": "common.schema.json#/$defs/errorInfo"
    }
  }
} as const;

export const pkgInstallSchema = {
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://drover.dev/schema/ws/pkg.install.schema.json",
  "title": "PkgInstallPayload",
  "description": "Scheduler → worker (with ack.request): fetch, verify and install a package version.",
  "type": "object",
  "additionalProperties": false,
  "required": [
    "name",
    "version",
    "url",
    "sha256",
    "size"
  ],
  "properties": {
    "name": {
      "$ref": "common.schema.json#/$defs/packageRef/properties/name"
    },
    "version": {
      "$ref": "common.schema.json#/$defs/packageRef/properties/version"
    },
    "url": {
      "type": "string",
      "maxLength": 2048
    },
    "sha256": {
      "type": "string",
      "pattern": "^[0-9a-f]{64}$",
      "maxLength": 64
    },
    "size": {
      "type": "integer",
      "minimum": 1
    },
    "signature": {
      "type": "string",
      "maxLength": 256
    }
  }
} as const;

export const pkgUninstallSchema = {
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://drover.dev/schema/ws/pkg.uninstall.schema.json",
  "title": "PkgUninstallPayload",
  "description": "Scheduler → worker (with ack.request): remove one installed version; other versions stay.",
  "type": "object",
  "additionalProperties": false,
  "required": [
    "name",
    "version"
  ],
  "properties": {
    "name": {
      "$ref": "common.schema.json#/$defs/packageRef/properties/name"
    },
    "version": {
      "$ref": "common.schema.json#/$defs/packageRef/properties/version"
    }
  }
} as const;

export const registerSchema = {
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://drover.dev/schema/ws/register.schema.json",
  "title": "RegisterPayload",
  "description": "Worker → scheduler after the handshake (with ack.request): what it can run, and what it is still running, so a reconnect can be reconciled.",
  "type": "object",
  "additionalProperties": false,
  "required": [
    "name",
    "capacity",
    "labels",
    "packages",
    "runtime",
    "inflight"
  ],
  "properties": {
    "name": {
      "type": "string",
      "maxLength": 128
    },
    "capacity": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "max_parallel"
      ],
      "properties": {
        "max_parallel": {
          "type": "integer",
          "minimum": 1,
          "maximum": 1024
        }
      }
    },
    "labels": {
      "type": "object",
      "maxProperties": 64,
      "propertyNames": {
        "maxLength": 64
      },
      "additionalProperties": {
        "type": "string",
        "maxLength": 256
      }
    },
    "packages": {
      "type": "array",
      "maxItems": 1000,
      "items": {
        "title": "InstalledPackage",
        "type": "object",
        "additionalProperties": false,
        "required": [
          "name",
          "version",
          "nodes"
        ],
        "properties": {
          "name": {
            "$ref": "common.schema.json#/$defs/packageRef/properties/name"
          },
          "version": {
            "$ref": "common.schema.json#/$defs/packageRef/properties/version"
          },
          "sha256": {
            "type": "string",
            "pattern": "^[0-9a-f]{64}$",
            "maxLength": 64
          },
          "nodes": {
            "type": "array",
            "maxItems": 1000,
            "items": {
              "type": "string",
              "maxLength": 128
            }
          }
        }
      }
    },
    "runtime": {
      "title": "RuntimeContext",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "os",
        "arch",
        "node"
      ],
      "properties": {
        "os": {
          "type": "string",
          "maxLength": 64
        },
        "arch": {
          "type": "string",
          "maxLength": 32
        },
        "node": {
          "type": "string",
          "maxLength": 32
        },
        "hostname": {
          "type": "string",
          "maxLength": 255
        },
        "chromium": {
          "type": "string",
          "maxLength": 128
        },
        "playwright": {
          "type": "string",
          "maxLength": 32
        }
      }
    },
    "inflight": {
      "description": "Tasks the worker holds: `running` (handler still executing) or `completed` (result not yet ACKed; it will be resent).",
      "type": "array",
      "maxItems": 1024,
      "items": {
        "title": "InflightTask",
        "type": "object",
        "additionalProperties": false,
        "required": [
          "run_id",
          "task_id",
          "attempt",
          "dispatch_id",
          "state"
        ],
        "properties": {
          "run_id": {
            "$ref": "common.schema.json#/$defs/uuid"
          },
          "task_id": {
            "$ref": "common.schema.json#/$defs/uuid"
          },
          "attempt": {
            "type": "integer",
            "minimum": 1
          },
          "dispatch_id": {
            "$ref": "common.schema.json#/$defs/uuid"
          },
          "state": {
            "type": "string",
            "enum": [
              "running",
              "completed"
            ]
          }
        }
      }
    }
  }
} as const;

export const resultSchema = {
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://drover.dev/schema/ws/result.schema.json",
  "title": "ResultPayload",
  "description": "Worker → scheduler (with ack.request): the outcome of one attempt, fenced by task id, attempt and dispatch id. ACKed only after it is committed.",
  "type": "object",
  "additionalProperties": false,
  "required": [
    "run_id",
    "task_id",
    "node_id",
    "attempt",
    "dispatch_id",
    "status",
    "timings"
  ],
  "properties": {
    "run_id": {
      "$ref": "common.schema.json#/$defs/uuid"
    },
    "task_id": {
      "$ref": "common.schema.json#/$defs/uuid"
    },
    "node_id": {
      "$ref": "common.schema.json#/$defs/uuid"
    },
    "attempt": {
      "type": "integer",
      "minimum": 1
    },
    "dispatch_id": {
      "$ref": "common.schema.json#/$defs/uuid"
    },
    "status": {
      "type": "string",
      "enum": [
        "succeeded",
        "failed"
      ]
    },
    "results": {
      "type": "object",
      "additionalProperties": true
    },
    "error": {
      "$ref": "common.schema.json#/$defs/errorInfo"
    },
    "timings": {
      "title": "ResultTimings",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "started_at",
        "finished_at",
        "duration_ms"
      ],
      "properties": {
        "started_at": {
          "type": "string",
          "format": "date-time",
          "maxLength": 40
        },
        "finished_at": {
          "type": "string",
          "format": "date-time",
          "maxLength": 40
        },
        "duration_ms": {
          "type": "number",
          "minimum": 0
        }
      }
    }
  },
  "if": {
    "properties": {
      "status": {
        "const": "failed"
      }
    }
  },
  "then": {
    "required": [
      "error"
    ],
    "properties": {
      "error": true
    }
  }
} as const;

/** Payload schema of each message type. */
export const payloadSchemas = {
  'ack': ackSchema,
  'cmd.cancel': cmdCancelSchema,
  'cmd.dispatch': cmdDispatchSchema,
  'cmd.drain': cmdDrainSchema,
  'command.error': commandErrorSchema,
  'error': errorSchema,
  'feedback': feedbackSchema,
  'handshake': handshakeSchema,
  'heartbeat': heartbeatSchema,
  'pkg.event': pkgEventSchema,
  'pkg.install': pkgInstallSchema,
  'pkg.uninstall': pkgUninstallSchema,
  'register': registerSchema,
  'result': resultSchema,
} as const;
