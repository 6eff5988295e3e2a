// Generated code of proto/ (buf generate, protoc-gen-es). Do not edit src/gen.
export * from "./gen/gatehouse/registry/v1/application_pb.ts";
export * from "./gen/gatehouse/registry/v1/registry_service_pb.ts";
export * from "./gen/gatehouse/registry/v1/assertions_service_pb.ts";
export * from "./gen/gatehouse/registry/v1/redirect_origins_service_pb.ts";
export * from "./gen/gatehouse/auth/v1/auth_service_pb.ts";
export * from "./gen/google/rpc/error_details_pb.ts";
export * from "./gen/gatehouse/users/v1/user_pb.ts";
export * from "./gen/gatehouse/users/v1/login_pb.ts";
export * from "./gen/gatehouse/users/v1/users_service_pb.ts";
export * from "./gen/gatehouse/users/v1/delivery_service_pb.ts";
export * from "./gen/gatehouse/users/v1/mfa_service_pb.ts";
export * from "./gen/gatehouse/audit/v1/audit_pb.ts";
export * from "./gen/gatehouse/registry/v1/admin_service_pb.ts";
export * from "./gen/gatehouse/auth/v1/user_sessions_service_pb.ts";
export * from "./gen/gatehouse/users/v1/users_admin_service_pb.ts";
export * from "./gen/gatehouse/registry/v1/identity_providers_service_pb.ts";
export * from "./gen/gatehouse/auth/v1/device_authorization_service_pb.ts";
