import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigMap, Secret, Service } from 'kubernetes-models/v1';
import { StatefulSet } from 'kubernetes-models/apps/v1';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { REPO_ROOT } from './support/air-process';

/*
 * Issue 43 item 7: the manifests under deploy/kubernetes/, each object validated against the
 * Kubernetes API schema (kubernetes-models), and checked against what the server reads: its
 * configuration schema, its probes and its drain.
 */

const DIR = path.join(REPO_ROOT, 'deploy/kubernetes');

type TObject = { apiVersion: string; kind: string; metadata: { name: string } } & Record<string, unknown>;

/** The model (and its schema) of each kind the manifests use. */
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'v1/Secret': Secret,
  'v1/ConfigMap': ConfigMap,
  'v1/Service': Service,
  'apps/v1/StatefulSet': StatefulSet,
  'networking.k8s.io/v1/Ingress': Ingress,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
};

function validate(object: TObject): void {
  const Model = MODELS[`${object.apiVersion}/${object.kind}`];
  if (!Model) throw new Error(`no schema for ${object.apiVersion} ${object.kind}`);
  new Model(object as never).validate();
}

const kustomization = parse(readFileSync(path.join(DIR, 'kustomization.yaml'), 'utf8')) as {
  resources: string[];
};
const objects: TObject[] = kustomization.resources.map(
  (file) => parse(readFileSync(path.join(DIR, file), 'utf8')) as TObject,
);
const one = <T>(kind: string): T[] =>
  objects.filter((object) => object.kind === kind).map((object) => object as T);

interface TStatefulSet {
  spec: {
    serviceName: string;
    selector: { matchLabels: Record<string, string> };
    template: {
      metadata: { labels: Record<string, string> };
      spec: {
        terminationGracePeriodSeconds: number;
        containers: {
          envFrom: ({ configMapRef?: { name: string } } & { secretRef?: { name: string } })[];
          readinessProbe: { httpGet: { path: string } };
          livenessProbe: { httpGet: { path: string } };
          volumeMounts: { name: string; mountPath: string }[];
        }[];
      };
    };
    volumeClaimTemplates: { metadata: { name: string } }[];
  };
}

describe('deploy/kubernetes', () => {
  it('lists every manifest in its kustomization, and every object passes the Kubernetes API schema', () => {
    const files = readdirSync(DIR).filter((file) => file !== 'kustomization.yaml');
    expect([...kustomization.resources].sort()).toEqual(files.sort());
    expect(objects.map((object) => object.kind).sort()).toEqual([
      'ConfigMap',
      'Ingress',
      'PodDisruptionBudget',
      'Secret',
      'Service',
      'Service',
      'StatefulSet',
    ]);
    for (const object of objects) expect(() => validate(object), object.metadata.name).not.toThrow();
  });

  it('the schema check refuses a broken object (it is not a check that passes anything)', () => {
    const statefulSet = structuredClone(objects.find((object) => object.kind === 'StatefulSet')!);
    (statefulSet.spec as { replicas: unknown }).replicas = 'two';
    expect(() => validate(statefulSet)).toThrow();
  });

  it('the StatefulSet keeps DATA_DIR on its own volume, probes /livez and /readyz, and outlasts the drain', () => {
    const [set] = one<TStatefulSet>('StatefulSet');
    const [config] = one<{ metadata: { name: string }; data: Record<string, string> }>('ConfigMap');
    const [secret] = one<{ metadata: { name: string }; stringData: Record<string, string> }>('Secret');
    const pod = set!.spec.template.spec;
    const container = pod.containers[0]!;
    expect(container.readinessProbe.httpGet.path).toBe('/readyz');
    expect(container.livenessProbe.httpGet.path).toBe('/livez');
    const dataMount = container.volumeMounts.find((mount) => mount.mountPath === config!.data.DATA_DIR);
    expect(set!.spec.volumeClaimTemplates.map((claim) => claim.metadata.name)).toEqual([dataMount!.name]);
    const drainMs = Number(config!.data.SHUTDOWN_DELAY_MS) + Number(config!.data.SHUTDOWN_TIMEOUT_MS);
    expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(drainMs);
    expect(container.envFrom).toEqual([
      { configMapRef: { name: config!.metadata.name } },
      { secretRef: { name: secret!.metadata.name } },
    ]);
    // The settings pass the server's own configuration schema (production: SECRET and DATABASE_URL).
    const settings = loadConfig({ ...config!.data, ...secret!.stringData });
    expect(settings).toMatchObject({ isProduction: true, dataDir: '/data', trustProxy: 1 });
    expect(settings.redisUrl).toMatch(/^redis:\/\//);
  });

  it('the Services, the Ingress and the disruption budget reach the StatefulSet’s pods', () => {
    const [set] = one<TStatefulSet>('StatefulSet');
    const labels = set!.spec.template.metadata.labels;
    const services = one<{
      metadata: { name: string };
      spec: { clusterIP?: string; selector: Record<string, string> };
    }>('Service');
    for (const service of services) expect(labels).toMatchObject(service.spec.selector);
    expect(services.find((service) => service.spec.clusterIP === 'None')!.metadata.name).toBe(
      set!.spec.serviceName,
    );
    const [budget] = one<{ spec: { selector: { matchLabels: Record<string, string> } } }>(
      'PodDisruptionBudget',
    );
    expect(labels).toMatchObject(budget!.spec.selector.matchLabels);
    const [ingress] = one<{
      spec: { rules: { http: { paths: { backend: { service: { name: string } } }[] } }[] };
    }>('Ingress');
    const backend = ingress!.spec.rules[0]!.http.paths[0]!.backend.service.name;
    expect(services.find((service) => service.metadata.name === backend)?.spec.clusterIP).toBeUndefined();
  });
});
