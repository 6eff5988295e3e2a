import Type from "typebox";

const Nullable = (t: ReturnType<typeof Type.String>) => Type.Union([t, Type.Null()]);
const Time = Type.String({ format: "date-time" });

export const WebhookItem = Type.Object(
  {
    id: Type.String(),
    url: Type.String(),
    events: Type.Array(Type.String()),
    application: Nullable(Type.String()),
    description: Type.String(),
    enabled: Type.Boolean(),
    disabledReason: Nullable(Type.String({ description: '"gone": a 410 answer switched it off' })),
    created: Time,
    updated: Time,
    previousSecretExpires: Nullable(Type.String({ description: "While set, the previous secret signs too" })),
  },
  { $id: "Webhook" },
);

export const WebhookWithSecret = Type.Object(
  { ...WebhookItem.properties, secret: Type.String({ description: "whsec_…, shown only here" }) },
  { $id: "WebhookWithSecret" },
);

export const DeliveryItem = Type.Object(
  {
    id: Type.String(),
    eventId: Type.String({ description: "The webhook-id header, the same on every try" }),
    type: Type.String(),
    status: Type.String({ description: "pending, delivered or failed" }),
    attempts: Type.Integer(),
    lastResponseCode: Type.Union([Type.Integer(), Type.Null()]),
    lastError: Nullable(Type.String()),
    nextAttempt: Nullable(Time),
    created: Time,
    updated: Time,
  },
  { $id: "WebhookDelivery" },
);

const closed = { additionalProperties: false } as const;
const Url = Type.String({ minLength: 1, maxLength: 2048 });
const Events = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 20 });
const Application = Type.Union([Type.String({ maxLength: 128 }), Type.Null()]);
const Description = Type.String({ maxLength: 500 });

export const WebhookCreate = Type.Object(
  {
    url: Url,
    events: Events,
    application: Type.Optional(Application),
    description: Type.Optional(Description),
    enabled: Type.Optional(Type.Boolean()),
  },
  { ...closed, $id: "WebhookCreate" },
);

export const WebhookPatch = Type.Object(
  {
    url: Type.Optional(Url),
    events: Type.Optional(Events),
    application: Type.Optional(Application),
    description: Type.Optional(Description),
    enabled: Type.Optional(Type.Boolean()),
  },
  { ...closed, $id: "WebhookPatch" },
);
