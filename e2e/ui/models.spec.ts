import { expect, test } from '../support/fixtures';
import { createSharedEndpoint, createUser, startUpstream, useSessionOf } from '../support/users';

/*
 * One model, many providers (issue 44 item 2) against the real server: two providers share an
 * endpoint each, one declares the model it serves in the console's Settings tab ("Model served"),
 * the other through the API; a caller's key names the model id in `model` and is answered by
 * one of them, `x-air-route` naming which, and by the other when `provider.only` asks for it;
 * `GET /api/v1/models` lists the model with two providers.
 */

const stamp = Date.now().toString(36);

test('a model id declared in Settings is callable by the model, across two providers', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const upstream = await startUpstream();
  try {
    const ann = await createUser(request, 'Ann Models', 'models-a');
    const bob = await createUser(request, 'Bob Models', 'models-b');
    const caller = await createUser(request, 'Cid Models', 'models-c');
    const annRoute = `ann-${stamp}/chat`;
    const bobRoute = `bob-${stamp}/chat`;
    const modelId = `e2e-org/llama-${stamp}`;
    const annId = await createSharedEndpoint(request, ann, {
      name: 'Ann chat',
      routeName: annRoute,
      url: `${upstream.url}/ok`,
    });
    const bobId = await createSharedEndpoint(request, bob, {
      name: 'Bob chat',
      routeName: bobRoute,
      url: `${upstream.url}/ok`,
    });
    const declared = await request.patch(`/api/aiendpoint/${bobId}`, {
      headers: bob.headers,
      data: { model_id: modelId },
    });
    expect(declared.status(), await declared.text()).toBe(200);

    // Ann types the model id in her own case and spacing; the field shows it as stored.
    await useSessionOf(page, ann);
    await page.goto(`/aiendpoints/${annId}`);
    await page.getByRole('tab', { name: 'Settings' }).click();
    const field = page.getByRole('textbox', { name: 'Model served' });
    await field.fill(`  ${modelId.toUpperCase()} `);
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(field).toHaveValue(modelId);

    const key = await request.post('/api/key', {
      headers: caller.headers,
      data: { name: 'model key', scope: ['gateway.invoke'] },
    });
    expect(key.status(), await key.text()).toBe(201);
    const fullKey = ((await key.json()) as { data: { full_key: string } }).data.full_key;
    const call = (provider?: Record<string, unknown>) =>
      request.post('/api/v1/chat/completions', {
        headers: { authorization: `Bearer ${fullKey}` },
        data: {
          model: modelId,
          messages: [{ role: 'user', content: 'Hi' }],
          ...(provider ? { provider } : {}),
        },
      });
    // Both free: the calls spread across the two (decision 060), so either may answer.
    const first = await call();
    expect(first.status(), await first.text()).toBe(200);
    expect([annRoute, bobRoute]).toContain(first.headers()['x-air-route']);
    const onlyAnn = await call({ only: [`ann-${stamp}`] });
    expect(onlyAnn.status()).toBe(200);
    expect(onlyAnn.headers()['x-air-route']).toBe(annRoute);
    const onlyBob = await call({ only: [`bob-${stamp}`] });
    expect(onlyBob.status()).toBe(200);
    expect(onlyBob.headers()['x-air-route']).toBe(bobRoute);

    const models = await request.get('/api/v1/models', { headers: { authorization: `Bearer ${fullKey}` } });
    const data = ((await models.json()) as { data: { id: string; providers?: number }[] }).data;
    expect(data.find((model) => model.id === modelId)).toMatchObject({ providers: 2, owned_by: 'air' });
  } finally {
    upstream.server.close();
  }
});
