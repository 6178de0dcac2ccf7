// DO NOT EDIT. Generated from schema/workflow/workflow.schema.json by `pnpm gen` (scripts/gen.ts).
// `pnpm gen:check` (part of the test command) fails when this file is stale.

export const workflowSchema = {
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://drover.dev/schema/workflow/workflow.schema.json",
  "title": "WorkflowDefinition",
  "description": "A workflow as the editor saves it and the scheduler runs it: nodes (UUID ids) wired by edges between output and input ports. Ports bind to `parameters.*` / `results.*` paths of their node.",
  "type": "object",
  "additionalProperties": false,
  "required": [
    "id",
    "nodes",
    "edges"
  ],
  "properties": {
    "id": {
      "$ref": "#/$defs/uuid"
    },
    "schemaVersion": {
      "type": "string",
      "maxLength": 32
    },
    "metadata": {
      "title": "WorkflowMetadata",
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "name": {
          "type": "string",
          "maxLength": 256
        },
        "description": {
          "type": "string",
          "maxLength": 4000
        },
        "tags": {
          "type": "array",
          "maxItems": 64,
          "items": {
            "type": "string",
            "maxLength": 64
          }
        },
        "environment": {
          "type": "string",
          "maxLength": 64
        }
      }
    },
    "nodes": {
      "type": "array",
      "minItems": 1,
      "maxItems": 2000,
      "items": {
        "$ref": "#/$defs/node"
      }
    },
    "edges": {
      "type": "array",
      "maxItems": 10000,
      "items": {
        "$ref": "#/$defs/edge"
      }
    },
    "runtimes": {
      "type": "object",
      "additionalProperties": true
    },
    "tags": {
      "type": "array",
      "maxItems": 64,
      "items": {
        "type": "string",
        "maxLength": 64
      }
    }
  },
  "$defs": {
    "uuid": {
      "type": "string",
      "format": "uuid",
      "maxLength": 36
    },
    "key": {
      "type": "string",
      "pattern": "^[A-Za-z_][A-Za-z0-9_-]{0,63}$",
      "maxLength": 64
    },
    "bindingPath": {
      "description": "Dot path into the node: `parameters.<name>[.<name>…]` or `results.<name>[.<name>…]`.",
      "type": "string",
      "pattern": "^(parameters|results)(\\.[A-Za-z_][A-Za-z0-9_-]*)+$",
      "maxLength": 256
    },
    "binding": {
      "title": "Binding",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "path"
      ],
      "properties": {
        "path": {
          "$ref": "#/$defs/bindingPath"
        },
        "mode": {
          "type": "string",
          "enum": [
            "read",
            "write",
            "two_way"
          ]
        }
      }
    },
    "port": {
      "title": "Port",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "key",
        "binding"
      ],
      "properties": {
        "key": {
          "$ref": "#/$defs/key"
        },
        "label": {
          "type": "string",
          "maxLength": 256
        },
        "binding": {
          "$ref": "#/$defs/binding"
        }
      }
    },
    "widget": {
      "title": "Widget",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "key",
        "component",
        "binding"
      ],
      "properties": {
        "key": {
          "$ref": "#/$defs/key"
        },
        "label": {
          "type": "string",
          "maxLength": 256
        },
        "component": {
          "type": "string",
          "maxLength": 64
        },
        "binding": {
          "$ref": "#/$defs/binding"
        },
        "options": {
          "type": "object",
          "additionalProperties": true
        }
      }
    },
    "ui": {
      "title": "NodeUi",
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "inputPorts": {
          "type": "array",
          "maxItems": 256,
          "items": {
            "$ref": "#/$defs/port"
          }
        },
        "widgets": {
          "type": "array",
          "maxItems": 256,
          "items": {
            "$ref": "#/$defs/widget"
          }
        },
        "outputPorts": {
          "type": "array",
          "maxItems": 256,
          "items": {
            "$ref": "#/$defs/port"
          }
        }
      }
    },
    "packageRef": {
      "title": "NodePackage",
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
    "nodeSchema": {
      "title": "NodeSchema",
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "parameters": {
          "type": "object",
          "additionalProperties": true
        },
        "results": {
          "type": "object",
          "additionalProperties": true
        }
      }
    },
    "node": {
      "title": "WorkflowNode",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "id",
        "type",
        "package"
      ],
      "properties": {
        "id": {
          "$ref": "#/$defs/uuid"
        },
        "type": {
          "type": "string",
          "pattern": "^[a-z0-9_-]+(\\.[a-z0-9_-]+)+$",
          "maxLength": 128
        },
        "package": {
          "$ref": "#/$defs/packageRef"
        },
        "label": {
          "type": "string",
          "maxLength": 256
        },
        "position": {
          "title": "Position",
          "type": "object",
          "additionalProperties": false,
          "required": [
            "x",
            "y"
          ],
          "properties": {
            "x": {
              "type": "number"
            },
            "y": {
              "type": "number"
            }
          }
        },
        "parameters": {
          "type": "object",
          "additionalProperties": true
        },
        "results": {
          "type": "object",
          "additionalProperties": true
        },
        "schema": {
          "$ref": "#/$defs/nodeSchema"
        },
        "ui": {
          "$ref": "#/$defs/ui"
        },
        "timeoutMs": {
          "description": "Wall-clock limit for one attempt.",
          "type": "integer",
          "minimum": 1,
          "maximum": 86400000
        },
        "conditions": {
          "type": "object",
          "additionalProperties": true
        },
        "extensions": {
          "type": "object",
          "additionalProperties": true
        },
        "metadata": {
          "type": "object",
          "additionalProperties": true
        }
      }
    },
    "edge": {
      "title": "WorkflowEdge",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "id",
        "source",
        "target"
      ],
      "properties": {
        "id": {
          "$ref": "#/$defs/uuid"
        },
        "source": {
          "$ref": "#/$defs/endpoint"
        },
        "target": {
          "$ref": "#/$defs/endpoint"
        }
      }
    },
    "endpoint": {
      "title": "EdgeEndpoint",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "node",
        "port"
      ],
      "properties": {
        "node": {
          "$ref": "#/$defs/uuid"
        },
        "port": {
          "$ref": "#/$defs/key"
        }
      }
    }
  }
} as const;
