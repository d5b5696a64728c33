# Constructed by Delete Last Used (took 7 milliseconds)
from torch import Tensor
import torch
from thunder.executors.torchex import no_autocast

@torch.no_grad()
@no_autocast
def backward_fn(saved_for_backward, cotangents):
  # saved_for_backward: "Collection"
  # cotangents: "Collection"
  C0, C1, = saved_for_backward
  # C0: "Collection"
  # C1: "Collection"
  clear_mutable_collection(saved_for_backward)
  clear_mutable_collection(C1)
  del C1, saved_for_backward
  t629, = cotangents
  # t629: "cpu f32[2, 8, 32]"
  clear_mutable_collection(cotangents)
  del cotangents
  t1311, t1309, t1306, t1304, t1295, t1267, t1265, t1260, t1258, t1253, t1251, \
  t1243, t1240, t1239, t1238, t1236, t1228, t1221, t1213, t1211, t1167, t1207, \
  t1206, t1190, t1178, t1172, t1155, t1153, t1145, t1142, t1141, t1140, t1138, \
  t1130, t1123, = C0
  # t1311: "cpu bf16[32, 128]"
  # t1309: "cpu bf16[2, 8, 128]"
  # t1306: "cpu f32[2, 8, 128]"
  # t1304: "cpu f32[2, 8, 128]"
  # t1295: "cpu f32[2, 8, 128]"
  # t1267: "cpu f32[2, 8, 128]"
  # t1265: "cpu f32[2, 8, 128]"
  # t1260: "cpu f32[2, 8, 128]"
  # t1258: "cpu f32[2, 8, 128]"
  # t1253: "cpu bf16[128, 32]"
  # t1251: "cpu bf16[2, 8, 32]"
  # t1243: "cpu f32[2, 8, 32]"
  # t1240: "cpu f32[2, 8, 32]"
  # t1239: "cpu f32[2, 8, 32]"
  # t1238: "cpu f32[2, 8, 32]"
  # t1236: "cpu f32[2, 8, 1]"
  # t1228: "cpu f32[2, 8]"
  # t1221: "cpu f32[2, 8, 32]"
  # t1213: "cpu bf16[32, 32]"
  # t1211: "cpu bf16[2, 8, 32]"
  # t1167: "cpu bf16[2, 4, 8, 8]"
  # t1207: "cpu bf16[2, 4, 8, 8]"
  # t1206: "cpu bf16[2, 4, 8, 8]"
  # t1190: "cpu b8[2, 4, 8, 8]"
  # t1178: "cpu bf16[2, 4, 8, 8]"
  # t1172: "cpu bf16[2, 4, 8, 8]"
  # t1155: "cpu bf16[96, 32]"
  # t1153: "cpu bf16[2, 8, 32]"
  # t1145: "cpu f32[2, 8, 32]"
  # t1142: "cpu f32[2, 8, 32]"
  # t1141: "cpu f32[2, 8, 32]"
  # t1140: "cpu f32[2, 8, 32]"
  # t1138: "cpu f32[2, 8, 1]"
  # t1130: "cpu f32[2, 8]"
  # t1123: "cpu f32[2, 8, 32]"
  clear_mutable_collection(C0)
  del C0
  t1319 = Tensor.to(t629, torch.bfloat16, copy=True)  # t1319: "cpu bf16[2, 8, 32]"
    # t1319 = ltorch.to(t629, torch.bfloat16, None, device=None, dtype=None, copy=True, memory_format=None)  # t1319: "cpu bf16[2, 8, 32]"
      # t1318 = prims.clone(t629)  # t1318: "cpu f32[2, 8, 32]"
      # t1319 = prims.convert_element_type(t1318, dtypes.bfloat16)  # t1319: "cpu bf16[2, 8, 32]"
  t1320 = torch.reshape(t1319, (-1, 32))  # t1320: "cpu bf16[16, 32]"
    # t1320 = ltorch.reshape(t1319, (-1, 32))  # t1320: "cpu bf16[16, 32]"
      # t1320 = prims.reshape(t1319, (16, 32))  # t1320: "cpu bf16[16, 32]"
  t1321 = torch.matmul(t1320, t1311)  # t1321: "cpu bf16[16, 128]"
    # t1321 = ltorch.matmul(t1320, t1311)  # t1321: "cpu bf16[16, 128]"
      # t1321 = prims.matmul(t1320, t1311)  # t1321: "cpu bf16[16, 128]"
  del t1320, t1311
  t1322 = torch.reshape(t1321, (2, 8, 128))  # t1322: "cpu bf16[2, 8, 128]"
    # t1322 = ltorch.reshape(t1321, (2, 8, 128))  # t1322: "cpu bf16[2, 8, 128]"
      # t1322 = prims.reshape(t1321, (2, 8, 128))  # t1322: "cpu bf16[2, 8, 128]"
  del t1321
  t1323 = torch.reshape(t1319, (-1, 32))  # t1323: "cpu bf16[16, 32]"
    # t1323 = ltorch.reshape(t1319, (-1, 32))  # t1323: "cpu bf16[16, 32]"
      # t1323 = prims.reshape(t1319, (16, 32))  # t1323: "cpu bf16[16, 32]"
  t1324 = torch.permute(t1323, (1, 0))  # t1324: "cpu bf16[32, 16]"
    # t1324 = ltorch.permute(t1323, (1, 0))  # t1324: "cpu bf16[32, 16]"
      # t1324 = prims.transpose(t1323, (1, 0))  # t1324: "cpu bf16[32, 16]"
  del t1323
  t1325 = torch.reshape(t1309, (-1, 128))  # t1325: "cpu bf16[16, 128]"
    # t1325 = ltorch.reshape(t1309, (-1, 128))  # t1325: "cpu bf16[16, 128]"
      # t1325 = prims.reshape(t1309, (16, 128))  # t1325: "cpu bf16[16, 128]"
  del t1309
  t1326 = torch.matmul(t1324, t1325)  # t1326: "cpu bf16[32, 128]"
    # t1326 = ltorch.matmul(t1324, t1325)  # t1326: "cpu bf16[32, 128]"
      # t1326 = prims.matmul(t1324, t1325)  # t1326: "cpu bf16[32, 128]"
  del t1324, t1325
  t1329 = torch.sum(t1319, (0, 1), False, dtype=None)  # t1329: "cpu bf16[32]"
    # t1329 = ltorch.sum(t1319, (0, 1), False, dtype=None)  # t1329: "cpu bf16[32]"
      # t1327 = ltorch.to(t1319, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t1327: "cpu f32[2, 8, 32]"
        # t1327 = prims.convert_element_type(t1319, dtypes.float32)  # t1327: "cpu f32[2, 8, 32]"
      # t1328 = prims.sum(t1327, (0, 1))  # t1328: "cpu f32[32]"
      # t1329 = ltorch.to(t1328, dtypes.bfloat16, None, device=None, dtype=None, copy=False, memory_format=None)  # t1329: "cpu bf16[32]"
        # t1329 = prims.convert_element_type(t1328, dtypes.bfloat16)  # t1329: "cpu bf16[32]"
  del t1319
  t1331 = Tensor.to(t1329, torch.float32, copy=True)  # t1331: "cpu f32[32]"
    # t1331 = ltorch.to(t1329, torch.float32, None, device=None, dtype=None, copy=True, memory_format=None)  # t1331: "cpu f32[32]"
      # t1330 = prims.clone(t1329)  # t1330: "cpu bf16[32]"
      # t1331 = prims.convert_element_type(t1330, dtypes.float32)  # t1331: "cpu f32[32]"
  del t1329
  t1333 = Tensor.to(t1326, torch.float32, copy=True)  # t1333: "cpu f32[32, 128]"
    # t1333 = ltorch.to(t1326, torch.float32, None, device=None, dtype=None, copy=True, memory_format=None)  # t1333: "cpu f32[32, 128]"
      # t1332 = prims.clone(t1326)  # t1332: "cpu bf16[32, 128]"
      # t1333 = prims.convert_element_type(t1332, dtypes.float32)  # t1333: "cpu f32[32, 128]"
  del t1326
  t1335 = Tensor.to(t1322, torch.float32, copy=True)  # t1335: "cpu f32[2, 8, 128]"
    # t1335 = ltorch.to(t1322, torch.float32, None, device=None, dtype=None, copy=True, memory_format=None)  # t1335: "cpu f32[2, 8, 128]"
      # t1334 = prims.clone(t1322)  # t1334: "cpu bf16[2, 8, 128]"
      # t1335 = prims.convert_element_type(t1334, dtypes.float32)  # t1335: "cpu f32[2, 8, 128]"
  del t1322
  t1336 = torch.mul(t1306, t1335)  # t1336: "cpu f32[2, 8, 128]"
    # t1336 = ltorch.mul(t1306, t1335)  # t1336: "cpu f32[2, 8, 128]"
      # t1336 = prims.mul(t1306, t1335)  # t1336: "cpu f32[2, 8, 128]"
  del t1306
  t1337 = torch.mul(t1304, t1335)  # t1337: "cpu f32[2, 8, 128]"
    # t1337 = ltorch.mul(t1304, t1335)  # t1337: "cpu f32[2, 8, 128]"
      # t1337 = prims.mul(t1304, t1335)  # t1337: "cpu f32[2, 8, 128]"
  del t1304, t1335
  t1339 = Tensor.to(t1337, torch.bfloat16, copy=True)  # t1339: "cpu bf16[2, 8, 128]"
    # t1339 = ltorch.to(t1337, torch.bfloat16, None, device=None, dtype=None, copy=True, memory_format=None)  # t1339: "cpu bf16[2, 8, 128]"
      # t1338 = prims.clone(t1337)  # t1338: "cpu f32[2, 8, 128]"
      # t1339 = prims.convert_element_type(t1338, dtypes.bfloat16)  # t1339: "cpu bf16[2, 8, 128]"
  del t1337
  t1341 = Tensor.to(t1336, torch.bfloat16, copy=True)  # t1341: "cpu bf16[2, 8, 128]"
    # t1341 = ltorch.to(t1336, torch.bfloat16, None, device=None, dtype=None, copy=True, memory_format=None)  # t1341: "cpu bf16[2, 8, 128]"
      # t1340 = prims.clone(t1336)  # t1340: "cpu f32[2, 8, 128]"
      # t1341 = prims.convert_element_type(t1340, dtypes.bfloat16)  # t1341: "cpu bf16[2, 8, 128]"
  del t1336
  t1343 = Tensor.to(t1339, torch.float32, copy=True)  # t1343: "cpu f32[2, 8, 128]"
    # t1343 = ltorch.to(t1339, torch.float32, None, device=None, dtype=None, copy=True, memory_format=None)  # t1343: "cpu f32[2, 8, 128]"
      # t1342 = prims.clone(t1339)  # t1342: "cpu bf16[2, 8, 128]"
      # t1343 = prims.convert_element_type(t1342, dtypes.float32)  # t1343: "cpu f32[2, 8, 128]"
  del t1339
  t1345 = Tensor.to(t1343, torch.bfloat16, copy=True)  # t1345: "cpu bf16[2, 8, 128]"
    # t1345 = ltorch.to(t1343, torch.bfloat16, None, device=None, dtype=None, copy=True, memory_format=None)  # t1345: "cpu bf16[2, 8, 128]"
      # t1344 = prims.clone(t1343)  # t1344: "cpu f32[2, 8, 128]"
      # t1345 = prims.convert_element_type(t1344, dtypes.bfloat16)  # t1345: "cpu bf16[2, 8, 128]"
  del t1343
  t1347 = Tensor.to(t1345, torch.float32, copy=True)  # t1347: "cpu f32[2, 8, 128]"
    # t1347 = ltorch.to(t1345, torch.float32, None, device=None, dtype=None, copy=True, memory_format=None)  # t1347: "cpu f32[2, 8, 128]"
      # t1346 = prims.clone(t1345)  # t1346: "cpu bf16[2, 8, 128]"
      # t1347 = prims.convert_element_type(t1346, dtypes.float32)  # t1347: "cpu f32[2, 8, 128]"
  del t1345
  t1348 = torch.mul(t1295, t1295)  # t1348: "cpu f32[2, 8, 128]"
    # t1348 = ltorch.mul(t1295, t1295)  # t1348: "cpu f32[2, 8, 128]"
      # t1348 = prims.mul(t1295, t1295)  # t1348: "cpu f32[2, 8, 128]"
  del t1295
  t1349 = torch.sub(1, t1348, alpha=1)  # t1349: "cpu f32[2, 8, 128]"
    # t1349 = ltorch.sub(1, t1348, alpha=1)  # t1349: "cpu f32[2, 8, 128]"
      # t1349 = prims.sub(1.0, t1348)  # t1349: "cpu f32[2, 8, 128]"
  del t1348
  t1350 = torch.mul(t1347, t1349)  # t1350: "cpu f32[2, 8, 128]"
    # t1350 = ltorch.mul(t1347, t1349)  # t1350: "cpu f32[2, 8, 128]"
      # t1350 = prims.mul(t1347, t1349)  # t1350: "cpu f32[2, 8, 128]"
  del t1347, t1349
  t1352 = Tensor.to(t1350, torch.bfloat16, copy=True)  # t1352: "cpu bf16[2, 8, 128]"
    # t1352 = ltorch.to(t1350, torch.bfloat16, None, device=None, dtype=None, copy=True, memory_format=None)  # t1352: "cpu bf16[2, 8, 128]"
      # t1351 = prims.clone(t1350)  # t1351: "cpu f32[2, 8, 128]"
      # t1352 = prims.convert_element_type(t1351, dtypes.bfloat16)  # t1352: "cpu bf16[2, 8, 128]"
  del t1350
  t1354 = Tensor.to(t1352, torch.float32, copy=True)  # t1354: "cpu f32[2, 8, 128]"
    # t1354 = ltorch.to(t1352, torch.float32, None, device=None, dtype=None, copy=True, memory_format=None)  # t1354: "cpu f32[2, 8, 128]"
      # t1353 = prims.clone(t1352)  # t1353: "cpu bf16[2, 8, 128]"
      # t1354 = prims.convert_element_type(t1353, dtypes.float32)  # t1354: "cpu f32[2, 8, 128]"
  del t1352
  t1355 = torch.mul(0.7978845608028654, t1354)  # t1355: "cpu f32[2, 8, 128]"
    # t1355 = ltorch.mul(0.7978845608028654, t1354)  # t1355: "cpu f32[2, 8, 128]"
      # t1355 = prims.mul(0.7978845608028654, t1354)  # t1355: "cpu f32[2, 8, 128]"
  del t1354
  t1357 = Tensor.to(t1355, torch.bfloat16, copy=True)  # t1357: "cpu bf16[2, 8, 128]"
    # t1357 = ltorch.to(t1355, torch.bfloat16, None, device=None, dtype=None, copy=True, memory_format=None)  # t1357: "cpu bf16[2, 8, 128]"
      # t1356 = prims.clone(t1355)  # t1356: "cpu f32[2, 8, 128]"
      # t1357 = prims.convert_element_type(t1356, dtypes.bfloat16)  # t1357: "cpu bf16[2, 8, 128]"
  del t1355
  t1359 = Tensor.to(t1357, torch.float32, copy=True)  # t1359: "cpu f32[2, 8, 128]"
    # t1359 = ltorch.to(t1357, torch.float32, None, device=None, dtype=None, copy=True, memory_format=None)  # t1359: "cpu f32[2, 8, 128]"
      # t1358 = prims.clone(t1357)  # t1358: "cpu bf16[2, 8, 128]"
      # t1359 = prims.convert_element_type(t1358, dtypes.float32)  # t1359: "cpu f32[2, 8, 128]"
  del t1357
  t1361 = Tensor.to(t1359, torch.bfloat16, copy=True)  # t1361: "cpu bf16[2, 8, 128]"
    # t1361 = ltorch.to(t1359, torch.bfloat16, None, device=None, dtype=None, copy=True, memory_format=None)  # t1361: "cpu bf16[2, 8, 128]"
      # t1360 = prims.clone(t1359)  # t1360: "cpu f32[2, 8, 128]"
      # t1361 = prims.convert_element_type(t1360, dtypes.bfloat16)  # t1361: "cpu bf16[2, 8, 128]"
  t1363 = Tensor.to(t1359, torch.bfloat16, copy=True)  # t1363: "cpu bf16[2, 8, 128]"
    # t1363 = ltorch.to(t1359, torch.bfloat16, None, device=None, dtype=None, copy=True, memory_format=None)  # t1363: "cpu bf16[2, 8, 128]"
      # t1362 = prims.clone(t1359)  # t1362: "cpu f32[2, 8, 128]"
      # t1363 = prims.convert_element_type(t1362, dtypes.bfloat16)  # t1363: "cpu bf16[2, 8, 128]"
  del t1359
  t1365 = Tensor.to(t1361, torch.float32, copy=True)  # t1365: "cpu f32[2, 8, 128]"
    # t1365 = ltorch.to(t1361, torch.float32, None, device=None, dtype=None, copy=True, memory_format=None)  # t1365: "cpu f32[2, 8, 128]"
      # t1364 = prims.clone(t1361)  # t1364: "cpu bf16[2, 8, 128]"
      # t1365 = prims.convert_element_type(t1364, dtypes.float32)  # t1365: "cpu f32[2, 8, 128]"
  del t1361
  t1366 = torch.mul(0.044715, t1365)  # t1366: "cpu f32[2, 8, 128]"
    # t1366 = ltorch.mul(0.044715, t1365)  # t1366: "cpu f32[2, 8, 128]"
      # t1366 = prims.mul(0.044715, t1365)  # t1366: "cpu f32[2, 8, 128]"
  del t1365
  t1368 = Tensor.to(t1366, torch.bfloat16, copy=True)  # t1368: "cpu bf16[2, 8, 128]"
    # t1368 = ltorch.to(t1366, torch.bfloat16, None, device=None, dtype=None, copy=True, memory_format=None)  # t1368: "cpu bf16[2, 8, 128]"
      # t1367 = prims.clone(t1366)  # t1367: "cpu f32[2, 8, 128]"
      # t1368 = prims.convert_element_type(t1367, dtypes.bfloat16)  # t1368: "cpu bf16[2, 8, 128]"
  del t1366
  t1370 = Tensor.to(t1341, torch.float32, copy=True)  # t1370: "cpu f32[2, 8, 128]"
    # t1370 = ltorch.to(t1341, torch.float32, None, device=None, dtype=None, copy=True, memory_format=None)  # t1370: "cpu f32[2, 8, 128]"
      # t1369 = prims.clone(t1341)  # t1369: "cpu bf16[2, 8, 128]"
      # t1370 = prims.convert_element_type(t1369, dtypes.float32)  # t1370: "cpu f32[2, 8, 128]"
  del t1341
  t1371 = torch.mul(0.5, t1370)  # t1371: "cpu f32[2, 8, 128]"
    # t1371 = ltorch.mul(0.5, t1370)  # t1371: "cpu f32[2, 8, 128]"
      # t1371 = prims.mul(0.5, t1370)  # t1371: "cpu f32[2, 8, 128]"
  del t1370
  t1373 = Tensor.to(t1371, torch.bfloat16, copy=True)  # t1373: "cpu bf16[2, 8, 128]"
    # t1373 = ltorch.to(t1371, torch.bfloat16, None, device=None, dtype=None, copy=True, memory_format=None)  # t1373: "cpu bf16[2, 8, 128]"
      # t1372 = prims.clone(t1371)  # t1372: "cpu f32[2, 8, 128]"
      # t1373 = prims.convert_element_type(t1372, dtypes.bfloat16)  # t1373: "cpu bf16[2, 8, 128]"
  del t1371
  t1377 = torch.add(t1363, t1373, alpha=1)  # t1377: "cpu bf16[2, 8, 128]"
    # t1377 = ltorch.add(t1363, t1373, alpha=1)  # t1377: "cpu bf16[2, 8, 128]"
      # t1374 = prims.convert_element_type(t1363, dtypes.float32)  # t1374: "cpu f32[2, 8, 128]"
      # t1375 = prims.convert_element_type(t1373, dtypes.float32)  # t1375: "cpu f32[2, 8, 128]"
      # t1376 = prims.add(t1374, t1375)  # t1376: "cpu f32[2, 8, 128]"
      # t1377 = prims.convert_element_type(t1376, dtypes.bfloat16)  # t1377: "cpu bf16[2, 8, 128]"
  del t1363, t1373
  t1379 = Tensor.to(t1368, torch.float32, copy=True)  # t1379: "cpu f32[2, 8, 128]"
    # t1379 = ltorch.to(t1368, torch.float32, None, device=None, dtype=None, copy=True, memory_format=None)  # t1379: "cpu f32[2, 8, 128]"
      # t1378 = prims.clone(t1368)  # t1378: "cpu bf16[2, 8, 128]"
      # t1379 = prims.convert_element_type(t1378, dtypes.float32)  # t1379: "cpu f32[2, 8, 128]"
  del t1368
  t1380 = torch.mul(t1267, t1379)  # t1380: "cpu f32[2, 8, 128]"
    # t1380 = ltorch.mul(t1267, t1379)  # t1380: "cpu f32[2, 8, 128]"
      # t1380 = prims.mul(t1267, t1379)  # t1380: "cpu f32[2, 8, 128]"
  del t1267
  t1381 = torch.mul(t1265, t1379)  # t1381: "cpu f32[2, 8, 128]"
    # t1381 = ltorch.mul(t1265, t1379)  # t1381: "cpu f32[2, 8, 128]"
      # t1381 = prims.mul(t1265, t1379)  # t1381: "cpu f32[2, 8, 128]"
  del t1265, t1379
  t1383 = Tensor.to(t1381, torch.bfloat16, copy=True)  # t1383: "cpu bf16[2, 8, 128]"
    # t1383 = ltorch.to(t1381, torch.bfloat16, None, device=None, dtype=None, copy=True, memory_format=None)  # t1383: "cpu bf16[2, 8, 128]"
      # t1382 = prims.clone(t1381)  # t1382: "cpu f32[2, 8, 128]"
      # t1383 = prims.convert_element_type(t1382, dtypes.bfloat16)  # t1383: "cpu bf16[2, 8, 128]"
  del t1381
  t1387 = torch.add(t1377, t1383, alpha=1)  # t1387: "cpu bf16[2, 8, 128]"
    # t1387 = ltorch.add(t1377, t1383, alpha=1)  # t1387: "cpu bf16[2, 8, 128]"
      # t1384 = prims.convert_element_type(t1377, dtypes.float32)  # t1384: "cpu f32[2, 8, 128]"
      # t1385 = prims.convert_element_type(t1383, dtypes.float32)  # t1385: "cpu f32[2, 8, 128]"
      # t1386 = prims.add(t1384, t1385)  # t1386: "cpu f32[2, 8, 128]"
      # t1387 = prims.convert_element_type(t1386, dtypes.bfloat16)  # t1387: "cpu bf16[2, 8, 128]"
  del t1377, t1383
  t1389 = Tensor.to(t1380, torch.bfloat16, copy=True)  # t1389: "cpu bf16[2, 8, 128]"
    # t1389 = ltorch.to(t1380, torch.bfloat16, None, device=None, dtype=None, copy=True, memory_format=None)  # t1389: "cpu bf16[2, 8, 128]"
      # t1388 = prims.clone(t1380)  # t1388: "cpu f32[2, 8, 128]"
      # t1389 = prims.convert_element_type(t1388, dtypes.bfloat16)  # t1389: "cpu bf16[2, 8, 128]"
  del t1380
  t1391 = Tensor.to(t1389, torch.float32, copy=True)  # t1391: "cpu f32[2, 8, 128]"
    # t1391 = ltorch.to(t1389, torch.float32, None, device=None, dtype=None, copy=True, memory_format=None)  # t1391: "cpu f32[2, 8, 128]"
      # t1390 = prims.clone(t1389)  # t1390: "cpu bf16[2, 8, 128]"
      # t1391 = prims.convert_element_type(t1390, dtypes.float32)  # t1391: "cpu f32[2, 8, 128]"
  del t1389
  t1392 = torch.mul(t1260, t1391)  # t1392: "cpu f32[2, 8, 128]"
    # t1392 = ltorch.mul(t1260, t1391)  # t1392: "cpu f32[2, 8, 128]"
      # t1392 = prims.mul(t1260, t1391)  # t1392: "cpu f32[2, 8, 128]"
  del t1260
  t1393 = torch.mul(t1258, t1391)  # t1393: "cpu f32[2, 8, 128]"
    # t1393 = ltorch.mul(t1258, t1391)  # t1393: "cpu f32[2, 8, 128]"
      # t1393 = prims.mul(t1258, t1391)  # t1393: "cpu f32[2, 8, 128]"
  del t1258, t1391
  t1395 = Tensor.to(t1393, torch.bfloat16, copy=True)  # t1395: "cpu bf16[2, 8, 128]"
    # t1395 = ltorch.to(t1393, torch.bfloat16, None, device=None, dtype=None, copy=True, memory_format=None)  # t1395: "cpu bf16[2, 8, 128]"
      # t1394 = prims.clone(t1393)  # t1394: "cpu f32[2, 8, 128]"
      # t1395 = prims.convert_element_type(t1394, dtypes.bfloat16)  # t1395: "cpu bf16[2, 8, 128]"
  del t1393
  t1399 = torch.add(t1387, t1395, alpha=1)  # t1399: "cpu bf16[2, 8, 128]"
    # t1399 = ltorch.add(t1387, t1395, alpha=1)  # t1399: "cpu bf16[2, 8, 128]"
      # t1396 = prims.convert_element_type(t1387, dtypes.float32)  # t1396: "cpu f32[2, 8, 128]"
      # t1397 = prims.convert_element_type(t1395, dtypes.float32)  # t1397: "cpu f32[2, 8, 128]"
      # t1398 = prims.add(t1396, t1397)  # t1398: "cpu f32[2, 8, 128]"
      # t1399 = prims.convert_element_type(t1398, dtypes.bfloat16)  # t1399: "cpu bf16[2, 8, 128]"
  del t1387, t1395
  t1401 = Tensor.to(t1392, torch.bfloat16, copy=True)  # t1401: "cpu bf16[2, 8, 128]"
    # t1401 = ltorch.to(t1392, torch.bfloat16, None, device=None, dtype=None, copy=True, memory_format=None)  # t1401: "cpu bf16[2, 8, 128]"
      # t1400 = prims.clone(t1392)  # t1400: "cpu f32[2, 8, 128]"
      # t1401 = prims.convert_element_type(t1400, dtypes.bfloat16)  # t1401: "cpu bf16[2, 8, 128]"
  del t1392
  t1405 = torch.add(t1399, t1401, alpha=1)  # t1405: "cpu bf16[2, 8, 128]"
    # t1405 = ltorch.add(t1399, t1401, alpha=1)  # t1405: "cpu bf16[2, 8, 128]"
      # t1402 = prims.convert_element_type(t1399, dtypes.float32)  # t1402: "cpu f32[2, 8, 128]"
      # t1403 = prims.convert_element_type(t1401, dtypes.float32)  # t1403: "cpu f32[2, 8, 128]"
      # t1404 = prims.add(t1402, t1403)  # t1404: "cpu f32[2, 8, 128]"
      # t1405 = prims.convert_element_type(t1404, dtypes.bfloat16)  # t1405: "cpu bf16[2, 8, 128]"
  del t1399, t1401
  t1406 = torch.reshape(t1405, (-1, 128))  # t1406: "cpu bf16[16, 128]"
    # t1406 = ltorch.reshape(t1405, (-1, 128))  # t1406: "cpu bf16[16, 128]"
      # t1406 = prims.reshape(t1405, (16, 128))  # t1406: "cpu bf16[16, 128]"
  t1407 = torch.matmul(t1406, t1253)  # t1407: "cpu bf16[16, 32]"
    # t1407 = ltorch.matmul(t1406, t1253)  # t1407: "cpu bf16[16, 32]"
      # t1407 = prims.matmul(t1406, t1253)  # t1407: "cpu bf16[16, 32]"
  del t1406, t1253
  t1408 = torch.reshape(t1407, (2, 8, 32))  # t1408: "cpu bf16[2, 8, 32]"
    # t1408 = ltorch.reshape(t1407, (2, 8, 32))  # t1408: "cpu bf16[2, 8, 32]"
      # t1408 = prims.reshape(t1407, (2, 8, 32))  # t1408: "cpu bf16[2, 8, 32]"
  del t1407
  t1409 = torch.reshape(t1405, (-1, 128))  # t1409: "cpu bf16[16, 128]"
    # t1409 = ltorch.reshape(t1405, (-1, 128))  # t1409: "cpu bf16[16, 128]"
      # t1409 = prims.reshape(t1405, (16, 128))  # t1409: "cpu bf16[16, 128]"
  t1410 = torch.permute(t1409, (1, 0))  # t1410: "cpu bf16[128, 16]"
    # t1410 = ltorch.permute(t1409, (1, 0))  # t1410: "cpu bf16[128, 16]"
      # t1410 = prims.transpose(t1409, (1, 0))  # t1410: "cpu bf16[128, 16]"
  del t1409
  t1411 = torch.reshape(t1251, (-1, 32))  # t1411: "cpu bf16[16, 32]"
    # t1411 = ltorch.reshape(t1251, (-1, 32))  # t1411: "cpu bf16[16, 32]"
      # t1411 = prims.reshape(t1251, (16, 32))  # t1411: "cpu bf16[16, 32]"
  del t1251
  t1412 = torch.matmul(t1410, t1411)  # t1412: "cpu bf16[128, 32]"
    # t1412 = ltorch.matmul(t1410, t1411)  # t1412: "cpu bf16[128, 32]"
      # t1412 = prims.matmul(t1410, t1411)  # t1412: "cpu bf16[128, 32]"
  del t1410, t1411
  t1415 = torch.sum(t1405, (0, 1), False, dtype=None)  # t1415: "cpu bf16[128]"
    # t1415 = ltorch.sum(t1405, (0, 1), False, dtype=None)  # t1415: "cpu bf16[128]"
      # t1413 = ltorch.to(t1405, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t1413: "cpu f32[2, 8, 128]"
        # t1413 = prims.convert_element_type(t1405, dtypes.float32)  # t1413: "cpu f32[2, 8, 128]"
      # t1414 = prims.sum(t1413, (0, 1))  # t1414: "cpu f32[128]"
      # t1415 = ltorch.to(t1414, dtypes.bfloat16, None, device=None, dtype=None, copy=False, memory_format=None)  # t1415: "cpu bf16[128]"
        # t1415 = prims.convert_element_type(t1414, dtypes.bfloat16)  # t1415: "cpu bf16[128]"
  del t1405
  t1417 = Tensor.to(t1415, torch.float32, copy=True)  # t1417: "cpu f32[128]"
    # t1417 = ltorch.to(t1415, torch.float32, None, device=None, dtype=None, copy=True, memory_format=None)  # t1417: "cpu f32[128]"
      # t1416 = prims.clone(t1415)  # t1416: "cpu bf16[128]"
      # t1417 = prims.convert_element_type(t1416, dtypes.float32)  # t1417: "cpu f32[128]"
  del t1415
  t1419 = Tensor.to(t1412, torch.float32, copy=True)  # t1419: "cpu f32[128, 32]"
    # t1419 = ltorch.to(t1412, torch.float32, None, device=None, dtype=None, copy=True, memory_format=None)  # t1419: "cpu f32[128, 32]"
      # t1418 = prims.clone(t1412)  # t1418: "cpu bf16[128, 32]"
      # t1419 = prims.convert_element_type(t1418, dtypes.float32)  # t1419: "cpu f32[128, 32]"
  del t1412
  t1421 = Tensor.to(t1408, torch.float32, copy=True)  # t1421: "cpu f32[2, 8, 32]"
    # t1421 = ltorch.to(t1408, torch.float32, None, device=None, dtype=None, copy=True, memory_format=None)  # t1421: "cpu f32[2, 8, 32]"
      # t1420 = prims.clone(t1408)  # t1420: "cpu bf16[2, 8, 32]"
      # t1421 = prims.convert_element_type(t1420, dtypes.float32)  # t1421: "cpu f32[2, 8, 32]"
  del t1408
  t1424 = torch.sum(t1421, (0, 1), False, dtype=None)  # t1424: "cpu f32[32]"
    # t1424 = ltorch.sum(t1421, (0, 1), False, dtype=None)  # t1424: "cpu f32[32]"
      # t1422 = ltorch.to(t1421, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t1422: "cpu f32[2, 8, 32]"
        # t1422 = prims.shallow_copy(t1421)  # t1422: "cpu f32[2, 8, 32]"
      # t1423 = prims.sum(t1422, (0, 1))  # t1423: "cpu f32[32]"
      # t1424 = ltorch.to(t1423, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t1424: "cpu f32[32]"
        # t1424 = prims.shallow_copy(t1423)  # t1424: "cpu f32[32]"
  t1425 = torch.mul(t1243, t1421)  # t1425: "cpu f32[2, 8, 32]"
    # t1425 = ltorch.mul(t1243, t1421)  # t1425: "cpu f32[2, 8, 32]"
      # t1425 = prims.mul(t1243, t1421)  # t1425: "cpu f32[2, 8, 32]"
  del t1243
  t1426 = torch.mul(t1240, t1421)  # t1426: "cpu f32[2, 8, 32]"
    # t1426 = ltorch.mul(t1240, t1421)  # t1426: "cpu f32[2, 8, 32]"
      # t1426 = prims.mul(t1240, t1421)  # t1426: "cpu f32[2, 8, 32]"
  del t1240, t1421
  t1429 = torch.sum(t1426, (0, 1), False, dtype=None)  # t1429: "cpu f32[32]"
    # t1429 = ltorch.sum(t1426, (0, 1), False, dtype=None)  # t1429: "cpu f32[32]"
      # t1427 = ltorch.to(t1426, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t1427: "cpu f32[2, 8, 32]"
        # t1427 = prims.shallow_copy(t1426)  # t1427: "cpu f32[2, 8, 32]"
      # t1428 = prims.sum(t1427, (0, 1))  # t1428: "cpu f32[32]"
      # t1429 = ltorch.to(t1428, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t1429: "cpu f32[32]"
        # t1429 = prims.shallow_copy(t1428)  # t1429: "cpu f32[32]"
  del t1426
  t1430 = torch.mul(t1239, t1425)  # t1430: "cpu f32[2, 8, 32]"
    # t1430 = ltorch.mul(t1239, t1425)  # t1430: "cpu f32[2, 8, 32]"
      # t1430 = prims.mul(t1239, t1425)  # t1430: "cpu f32[2, 8, 32]"
  del t1239
  t1431 = torch.mul(t1238, t1425)  # t1431: "cpu f32[2, 8, 32]"
    # t1431 = ltorch.mul(t1238, t1425)  # t1431: "cpu f32[2, 8, 32]"
      # t1431 = prims.mul(t1238, t1425)  # t1431: "cpu f32[2, 8, 32]"
  del t1238, t1425
  t1434 = torch.sum(t1431, (2,), False, dtype=None)  # t1434: "cpu f32[2, 8]"
    # t1434 = ltorch.sum(t1431, (2,), False, dtype=None)  # t1434: "cpu f32[2, 8]"
      # t1432 = ltorch.to(t1431, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t1432: "cpu f32[2, 8, 32]"
        # t1432 = prims.shallow_copy(t1431)  # t1432: "cpu f32[2, 8, 32]"
      # t1433 = prims.sum(t1432, (2,))  # t1433: "cpu f32[2, 8]"
      # t1434 = ltorch.to(t1433, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t1434: "cpu f32[2, 8]"
        # t1434 = prims.shallow_copy(t1433)  # t1434: "cpu f32[2, 8]"
  del t1431
  t1435 = torch.unsqueeze(t1434, 2)  # t1435: "cpu f32[2, 8, 1]"
    # t1435 = ltorch.unsqueeze(t1434, 2)  # t1435: "cpu f32[2, 8, 1]"
      # t1435 = prims.broadcast_in_dim(t1434, [2, 8, 1], [0, 1])  # t1435: "cpu f32[2, 8, 1]"
  del t1434
  t1436 = Tensor.expand(t1435, [2, 8, 1])  # t1436: "cpu f32[2, 8, 1]"
    # t1436 = ltorch.expand(t1435, [2, 8, 1])  # t1436: "cpu f32[2, 8, 1]"
      # t1436 = prims.broadcast_in_dim(t1435, (2, 8, 1), (0, 1, 2))  # t1436: "cpu f32[2, 8, 1]"
  del t1435
  t1437 = torch.neg(t1430)  # t1437: "cpu f32[2, 8, 32]"
    # t1437 = ltorch.neg(t1430)  # t1437: "cpu f32[2, 8, 32]"
      # t1437 = prims.neg(t1430)  # t1437: "cpu f32[2, 8, 32]"
  t1438 = torch.add(t629, t1430, alpha=1)  # t1438: "cpu f32[2, 8, 32]"
    # t1438 = ltorch.add(t629, t1430, alpha=1)  # t1438: "cpu f32[2, 8, 32]"
      # t1438 = prims.add(t629, t1430)  # t1438: "cpu f32[2, 8, 32]"
  del t629, t1430
  t1441 = torch.sum(t1437, (2,), False, dtype=None)  # t1441: "cpu f32[2, 8]"
    # t1441 = ltorch.sum(t1437, (2,), False, dtype=None)  # t1441: "cpu f32[2, 8]"
      # t1439 = ltorch.to(t1437, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t1439: "cpu f32[2, 8, 32]"
        # t1439 = prims.shallow_copy(t1437)  # t1439: "cpu f32[2, 8, 32]"
      # t1440 = prims.sum(t1439, (2,))  # t1440: "cpu f32[2, 8]"
      # t1441 = ltorch.to(t1440, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t1441: "cpu f32[2, 8]"
        # t1441 = prims.shallow_copy(t1440)  # t1441: "cpu f32[2, 8]"
  del t1437
  t1442 = torch.unsqueeze(t1441, 2)  # t1442: "cpu f32[2, 8, 1]"
    # t1442 = ltorch.unsqueeze(t1441, 2)  # t1442: "cpu f32[2, 8, 1]"
      # t1442 = prims.broadcast_in_dim(t1441, [2, 8, 1], [0, 1])  # t1442: "cpu f32[2, 8, 1]"
  del t1441
  t1443 = Tensor.expand(t1442, [2, 8, 1])  # t1443: "cpu f32[2, 8, 1]"
    # t1443 = ltorch.expand(t1442, [2, 8, 1])  # t1443: "cpu f32[2, 8, 1]"
      # t1443 = prims.broadcast_in_dim(t1442, (2, 8, 1), (0, 1, 2))  # t1443: "cpu f32[2, 8, 1]"
  del t1442
  t1444 = torch.mul(-0.5, t1436)  # t1444: "cpu f32[2, 8, 1]"
    # t1444 = ltorch.mul(-0.5, t1436)  # t1444: "cpu f32[2, 8, 1]"
      # t1444 = prims.mul(-0.5, t1436)  # t1444: "cpu f32[2, 8, 1]"
  del t1436
  t1445 = torch.pow(t1236, 3.0)  # t1445: "cpu f32[2, 8, 1]"
    # t1445 = ltorch.pow(t1236, 3.0)  # t1445: "cpu f32[2, 8, 1]"
      # t1445 = prims.pow(t1236, 3.0)  # t1445: "cpu f32[2, 8, 1]"
  del t1236
  t1446 = torch.mul(t1444, t1445)  # t1446: "cpu f32[2, 8, 1]"
    # t1446 = ltorch.mul(t1444, t1445)  # t1446: "cpu f32[2, 8, 1]"
      # t1446 = prims.mul(t1444, t1445)  # t1446: "cpu f32[2, 8, 1]"
  del t1444, t1445
  t1449 = torch.sum(t1443, (2,), False, dtype=None)  # t1449: "cpu f32[2, 8]"
    # t1449 = ltorch.sum(t1443, (2,), False, dtype=None)  # t1449: "cpu f32[2, 8]"
      # t1447 = ltorch.to(t1443, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t1447: "cpu f32[2, 8, 1]"
        # t1447 = prims.shallow_copy(t1443)  # t1447: "cpu f32[2, 8, 1]"
      # t1448 = prims.sum(t1447, (2,))  # t1448: "cpu f32[2, 8]"
      # t1449 = ltorch.to(t1448, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t1449: "cpu f32[2, 8]"
        # t1449 = prims.shallow_copy(t1448)  # t1449: "cpu f32[2, 8]"
  del t1443
  t1452 = torch.sum(t1446, (2,), False, dtype=None)  # t1452: "cpu f32[2, 8]"
    # t1452 = ltorch.sum(t1446, (2,), False, dtype=None)  # t1452: "cpu f32[2, 8]"
      # t1450 = ltorch.to(t1446, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t1450: "cpu f32[2, 8, 1]"
        # t1450 = prims.shallow_copy(t1446)  # t1450: "cpu f32[2, 8, 1]"
      # t1451 = prims.sum(t1450, (2,))  # t1451: "cpu f32[2, 8]"
      # t1452 = ltorch.to(t1451, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t1452: "cpu f32[2, 8]"
        # t1452 = prims.shallow_copy(t1451)  # t1452: "cpu f32[2, 8]"
  del t1446
  t1453 = torch.unsqueeze(t1449, 2)  # t1453: "cpu f32[2, 8, 1]"
    # t1453 = ltorch.unsqueeze(t1449, 2)  # t1453: "cpu f32[2, 8, 1]"
      # t1453 = prims.broadcast_in_dim(t1449, [2, 8, 1], [0, 1])  # t1453: "cpu f32[2, 8, 1]"
  del t1449
  t1454 = Tensor.expand(t1453, [2, 8, 1])  # t1454: "cpu f32[2, 8, 1]"
    # t1454 = ltorch.expand(t1453, [2, 8, 1])  # t1454: "cpu f32[2, 8, 1]"
      # t1454 = prims.broadcast_in_dim(t1453, (2, 8, 1), (0, 1, 2))  # t1454: "cpu f32[2, 8, 1]"
  del t1453
  t1455 = Tensor.expand(t1454, (2, 8, 32))  # t1455: "cpu f32[2, 8, 32]"
    # t1455 = ltorch.expand(t1454, (2, 8, 32))  # t1455: "cpu f32[2, 8, 32]"
      # t1455 = prims.broadcast_in_dim(t1454, (2, 8, 32), (0, 1, 2))  # t1455: "cpu f32[2, 8, 32]"
  del t1454
  t1456 = torch.mul(0.03125, t1455)  # t1456: "cpu f32[2, 8, 32]"
    # t1456 = ltorch.mul(0.03125, t1455)  # t1456: "cpu f32[2, 8, 32]"
      # t1456 = prims.mul(0.03125, t1455)  # t1456: "cpu f32[2, 8, 32]"
  del t1455
  t1457 = torch.unsqueeze(t1452, 2)  # t1457: "cpu f32[2, 8, 1]"
    # t1457 = ltorch.unsqueeze(t1452, 2)  # t1457: "cpu f32[2, 8, 1]"
      # t1457 = prims.broadcast_in_dim(t1452, [2, 8, 1], [0, 1])  # t1457: "cpu f32[2, 8, 1]"
  del t1452
  t1458 = Tensor.expand(t1457, [2, 8, 1])  # t1458: "cpu f32[2, 8, 1]"
    # t1458 = ltorch.expand(t1457, [2, 8, 1])  # t1458: "cpu f32[2, 8, 1]"
      # t1458 = prims.broadcast_in_dim(t1457, (2, 8, 1), (0, 1, 2))  # t1458: "cpu f32[2, 8, 1]"
  del t1457
  t1459 = Tensor.expand(t1458, (2, 8, 32))  # t1459: "cpu f32[2, 8, 32]"
    # t1459 = ltorch.expand(t1458, (2, 8, 32))  # t1459: "cpu f32[2, 8, 32]"
      # t1459 = prims.broadcast_in_dim(t1458, (2, 8, 32), (0, 1, 2))  # t1459: "cpu f32[2, 8, 32]"
  del t1458
  t1460 = torch.unsqueeze(t1228, 2)  # t1460: "cpu f32[2, 8, 1]"
    # t1460 = ltorch.unsqueeze(t1228, 2)  # t1460: "cpu f32[2, 8, 1]"
      # t1460 = prims.broadcast_in_dim(t1228, [2, 8, 1], [0, 1])  # t1460: "cpu f32[2, 8, 1]"
  del t1228
  t1461 = Tensor.expand(t1460, [2, 8, 1])  # t1461: "cpu f32[2, 8, 1]"
    # t1461 = ltorch.expand(t1460, [2, 8, 1])  # t1461: "cpu f32[2, 8, 1]"
      # t1461 = prims.broadcast_in_dim(t1460, (2, 8, 1), (0, 1, 2))  # t1461: "cpu f32[2, 8, 1]"
  del t1460
  t1462 = Tensor.expand(t1461, (2, 8, 32))  # t1462: "cpu f32[2, 8, 32]"
    # t1462 = ltorch.expand(t1461, (2, 8, 32))  # t1462: "cpu f32[2, 8, 32]"
      # t1462 = prims.broadcast_in_dim(t1461, (2, 8, 32), (0, 1, 2))  # t1462: "cpu f32[2, 8, 32]"
  del t1461
  t1463 = torch.mul(2, t1459)  # t1463: "cpu f32[2, 8, 32]"
    # t1463 = ltorch.mul(2, t1459)  # t1463: "cpu f32[2, 8, 32]"
      # t1463 = prims.mul(2.0, t1459)  # t1463: "cpu f32[2, 8, 32]"
  del t1459
  t1464 = torch.sub(t1221, t1462, alpha=1)  # t1464: "cpu f32[2, 8, 32]"
    # t1464 = ltorch.sub(t1221, t1462, alpha=1)  # t1464: "cpu f32[2, 8, 32]"
      # t1464 = prims.sub(t1221, t1462)  # t1464: "cpu f32[2, 8, 32]"
  del t1221, t1462
  t1465 = torch.mul(t1463, t1464)  # t1465: "cpu f32[2, 8, 32]"
    # t1465 = ltorch.mul(t1463, t1464)  # t1465: "cpu f32[2, 8, 32]"
      # t1465 = prims.mul(t1463, t1464)  # t1465: "cpu f32[2, 8, 32]"
  del t1463, t1464
  t1466 = torch.true_divide(t1465, 32)  # t1466: "cpu f32[2, 8, 32]"
    # t1466 = ltorch.true_divide(t1465, 32)  # t1466: "cpu f32[2, 8, 32]"
      # t1466 = prims.div(t1465, 32.0)  # t1466: "cpu f32[2, 8, 32]"
  del t1465
  t1467 = torch.add(t1456, t1466, alpha=1)  # t1467: "cpu f32[2, 8, 32]"
    # t1467 = ltorch.add(t1456, t1466, alpha=1)  # t1467: "cpu f32[2, 8, 32]"
      # t1467 = prims.add(t1456, t1466)  # t1467: "cpu f32[2, 8, 32]"
  del t1456, t1466
  t1468 = torch.add(t1438, t1467, alpha=1)  # t1468: "cpu f32[2, 8, 32]"
    # t1468 = ltorch.add(t1438, t1467, alpha=1)  # t1468: "cpu f32[2, 8, 32]"
      # t1468 = prims.add(t1438, t1467)  # t1468: "cpu f32[2, 8, 32]"
  del t1438, t1467
  t1470 = Tensor.to(t1468, torch.bfloat16, copy=True)  # t1470: "cpu bf16[2, 8, 32]"
    # t1470 = ltorch.to(t1468, torch.bfloat16, None, device=None, dtype=None, copy=True, memory_format=None)  # t1470: "cpu bf16[2, 8, 32]"
      # t1469 = prims.clone(t1468)  # t1469: "cpu f32[2, 8, 32]"
      # t1470 = prims.convert_element_type(t1469, dtypes.bfloat16)  # t1470: "cpu bf16[2, 8, 32]"
  t1471 = torch.reshape(t1470, (-1, 32))  # t1471: "cpu bf16[16, 32]"
    # t1471 = ltorch.reshape(t1470, (-1, 32))  # t1471: "cpu bf16[16, 32]"
      # t1471 = prims.reshape(t1470, (16, 32))  # t1471: "cpu bf16[16, 32]"
  t1472 = torch.matmul(t1471, t1213)  # t1472: "cpu bf16[16, 32]"
    # t1472 = ltorch.matmul(t1471, t1213)  # t1472: "cpu bf16[16, 32]"
      # t1472 = prims.matmul(t1471, t1213)  # t1472: "cpu bf16[16, 32]"
  del t1471, t1213
  t1473 = torch.reshape(t1472, (2, 8, 32))  # t1473: "cpu bf16[2, 8, 32]"
    # t1473 = ltorch.reshape(t1472, (2, 8, 32))  # t1473: "cpu bf16[2, 8, 32]"
      # t1473 = prims.reshape(t1472, (2, 8, 32))  # t1473: "cpu bf16[2, 8, 32]"
  del t1472
  t1474 = torch.reshape(t1470, (-1, 32))  # t1474: "cpu bf16[16, 32]"
    # t1474 = ltorch.reshape(t1470, (-1, 32))  # t1474: "cpu bf16[16, 32]"
      # t1474 = prims.reshape(t1470, (16, 32))  # t1474: "cpu bf16[16, 32]"
  t1475 = torch.permute(t1474, (1, 0))  # t1475: "cpu bf16[32, 16]"
    # t1475 = ltorch.permute(t1474, (1, 0))  # t1475: "cpu bf16[32, 16]"
      # t1475 = prims.transpose(t1474, (1, 0))  # t1475: "cpu bf16[32, 16]"
  del t1474
  t1476 = torch.reshape(t1211, (-1, 32))  # t1476: "cpu bf16[16, 32]"
    # t1476 = ltorch.reshape(t1211, (-1, 32))  # t1476: "cpu bf16[16, 32]"
      # t1476 = prims.reshape(t1211, (16, 32))  # t1476: "cpu bf16[16, 32]"
  del t1211
  t1477 = torch.matmul(t1475, t1476)  # t1477: "cpu bf16[32, 32]"
    # t1477 = ltorch.matmul(t1475, t1476)  # t1477: "cpu bf16[32, 32]"
      # t1477 = prims.matmul(t1475, t1476)  # t1477: "cpu bf16[32, 32]"
  del t1475, t1476
  t1480 = torch.sum(t1470, (0, 1), False, dtype=None)  # t1480: "cpu bf16[32]"
    # t1480 = ltorch.sum(t1470, (0, 1), False, dtype=None)  # t1480: "cpu bf16[32]"
      # t1478 = ltorch.to(t1470, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t1478: "cpu f32[2, 8, 32]"
        # t1478 = prims.convert_element_type(t1470, dtypes.float32)  # t1478: "cpu f32[2, 8, 32]"
      # t1479 = prims.sum(t1478, (0, 1))  # t1479: "cpu f32[32]"
      # t1480 = ltorch.to(t1479, dtypes.bfloat16, None, device=None, dtype=None, copy=False, memory_format=None)  # t1480: "cpu bf16[32]"
        # t1480 = prims.convert_element_type(t1479, dtypes.bfloat16)  # t1480: "cpu bf16[32]"
  del t1470
  t1482 = Tensor.to(t1480, torch.float32, copy=True)  # t1482: "cpu f32[32]"
    # t1482 = ltorch.to(t1480, torch.float32, None, device=None, dtype=None, copy=True, memory_format=None)  # t1482: "cpu f32[32]"
      # t1481 = prims.clone(t1480)  # t1481: "cpu bf16[32]"
      # t1482 = prims.convert_element_type(t1481, dtypes.float32)  # t1482: "cpu f32[32]"
  del t1480
  t1484 = Tensor.to(t1477, torch.float32, copy=True)  # t1484: "cpu f32[32, 32]"
    # t1484 = ltorch.to(t1477, torch.float32, None, device=None, dtype=None, copy=True, memory_format=None)  # t1484: "cpu f32[32, 32]"
      # t1483 = prims.clone(t1477)  # t1483: "cpu bf16[32, 32]"
      # t1484 = prims.convert_element_type(t1483, dtypes.float32)  # t1484: "cpu f32[32, 32]"
  del t1477
  t1485 = torch_prims_reshape_impl(t1473, (2, 8, 4, 8))  # t1485: "cpu bf16[2, 8, 4, 8]"
  del t1473
  t1486 = torch.permute(t1485, (0, 2, 1, 3))  # t1486: "cpu bf16[2, 4, 8, 8]"
    # t1486 = ltorch.permute(t1485, (0, 2, 1, 3))  # t1486: "cpu bf16[2, 4, 8, 8]"
      # t1486 = prims.transpose(t1485, (0, 2, 1, 3))  # t1486: "cpu bf16[2, 4, 8, 8]"
  del t1485
  t1487 = torch.permute(t1167, (0, 1, 3, 2))  # t1487: "cpu bf16[2, 4, 8, 8]"
    # t1487 = ltorch.permute(t1167, (0, 1, 3, 2))  # t1487: "cpu bf16[2, 4, 8, 8]"
      # t1487 = prims.transpose(t1167, (0, 1, 3, 2))  # t1487: "cpu bf16[2, 4, 8, 8]"
  del t1167
  t1488 = torch.matmul(t1486, t1487)  # t1488: "cpu bf16[2, 4, 8, 8]"
    # t1488 = ltorch.matmul(t1486, t1487)  # t1488: "cpu bf16[2, 4, 8, 8]"
      # t1488 = prims.matmul(t1486, t1487)  # t1488: "cpu bf16[2, 4, 8, 8]"
  del t1487
  t1489 = torch.permute(t1207, (0, 1, 3, 2))  # t1489: "cpu bf16[2, 4, 8, 8]"
    # t1489 = ltorch.permute(t1207, (0, 1, 3, 2))  # t1489: "cpu bf16[2, 4, 8, 8]"
      # t1489 = prims.transpose(t1207, (0, 1, 3, 2))  # t1489: "cpu bf16[2, 4, 8, 8]"
  del t1207
  t1490 = torch.matmul(t1489, t1486)  # t1490: "cpu bf16[2, 4, 8, 8]"
    # t1490 = ltorch.matmul(t1489, t1486)  # t1490: "cpu bf16[2, 4, 8, 8]"
      # t1490 = prims.matmul(t1489, t1486)  # t1490: "cpu bf16[2, 4, 8, 8]"
  del t1489, t1486
  t1494 = torch.mul(t1206, t1488)  # t1494: "cpu bf16[2, 4, 8, 8]"
    # t1494 = ltorch.mul(t1206, t1488)  # t1494: "cpu bf16[2, 4, 8, 8]"
      # t1491 = prims.convert_element_type(t1206, dtypes.float32)  # t1491: "cpu f32[2, 4, 8, 8]"
      # t1492 = prims.convert_element_type(t1488, dtypes.float32)  # t1492: "cpu f32[2, 4, 8, 8]"
      # t1493 = prims.mul(t1491, t1492)  # t1493: "cpu f32[2, 4, 8, 8]"
      # t1494 = prims.convert_element_type(t1493, dtypes.bfloat16)  # t1494: "cpu bf16[2, 4, 8, 8]"
  t1498 = torch.sum(t1494, -1, True, dtype=None)  # t1498: "cpu bf16[2, 4, 8, 1]"
    # t1498 = ltorch.sum(t1494, -1, True, dtype=None)  # t1498: "cpu bf16[2, 4, 8, 1]"
      # t1495 = ltorch.to(t1494, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t1495: "cpu f32[2, 4, 8, 8]"
        # t1495 = prims.convert_element_type(t1494, dtypes.float32)  # t1495: "cpu f32[2, 4, 8, 8]"
      # t1496 = prims.sum(t1495, (3,))  # t1496: "cpu f32[2, 4, 8]"
      # t1497 = prims.broadcast_in_dim(t1496, [2, 4, 8, 1], [0, 1, 2])  # t1497: "cpu f32[2, 4, 8, 1]"
      # t1498 = ltorch.to(t1497, dtypes.bfloat16, None, device=None, dtype=None, copy=False, memory_format=None)  # t1498: "cpu bf16[2, 4, 8, 1]"
        # t1498 = prims.convert_element_type(t1497, dtypes.bfloat16)  # t1498: "cpu bf16[2, 4, 8, 1]"
  del t1494
  t1503 = torch.sub(t1488, t1498, alpha=1)  # t1503: "cpu bf16[2, 4, 8, 8]"
    # t1503 = ltorch.sub(t1488, t1498, alpha=1)  # t1503: "cpu bf16[2, 4, 8, 8]"
      # t1499 = prims.broadcast_in_dim(t1498, (2, 4, 8, 8), (0, 1, 2, 3))  # t1499: "cpu bf16[2, 4, 8, 8]"
      # t1500 = prims.convert_element_type(t1488, dtypes.float32)  # t1500: "cpu f32[2, 4, 8, 8]"
      # t1501 = prims.convert_element_type(t1499, dtypes.float32)  # t1501: "cpu f32[2, 4, 8, 8]"
      # t1502 = prims.sub(t1500, t1501)  # t1502: "cpu f32[2, 4, 8, 8]"
      # t1503 = prims.convert_element_type(t1502, dtypes.bfloat16)  # t1503: "cpu bf16[2, 4, 8, 8]"
  del t1488, t1498
  t1507 = torch.mul(t1206, t1503)  # t1507: "cpu bf16[2, 4, 8, 8]"
    # t1507 = ltorch.mul(t1206, t1503)  # t1507: "cpu bf16[2, 4, 8, 8]"
      # t1504 = prims.convert_element_type(t1206, dtypes.float32)  # t1504: "cpu f32[2, 4, 8, 8]"
      # t1505 = prims.convert_element_type(t1503, dtypes.float32)  # t1505: "cpu f32[2, 4, 8, 8]"
      # t1506 = prims.mul(t1504, t1505)  # t1506: "cpu f32[2, 4, 8, 8]"
      # t1507 = prims.convert_element_type(t1506, dtypes.bfloat16)  # t1507: "cpu bf16[2, 4, 8, 8]"
  del t1206, t1503
  t1508 = torch.where(t1190, t1507, 0)  # t1508: "cpu bf16[2, 4, 8, 8]"
    # t1508 = ltorch.where(t1190, t1507, 0)  # t1508: "cpu bf16[2, 4, 8, 8]"
      # t1508 = prims.where(t1190, t1507, 0.0)  # t1508: "cpu bf16[2, 4, 8, 8]"
  del t1190, t1507
  t1509 = torch.permute(t1178, (0, 1, 3, 2))  # t1509: "cpu bf16[2, 4, 8, 8]"
    # t1509 = ltorch.permute(t1178, (0, 1, 3, 2))  # t1509: "cpu bf16[2, 4, 8, 8]"
      # t1509 = prims.transpose(t1178, (0, 1, 3, 2))  # t1509: "cpu bf16[2, 4, 8, 8]"
  del t1178
  t1510 = torch.matmul(t1508, t1509)  # t1510: "cpu bf16[2, 4, 8, 8]"
    # t1510 = ltorch.matmul(t1508, t1509)  # t1510: "cpu bf16[2, 4, 8, 8]"
      # t1510 = prims.matmul(t1508, t1509)  # t1510: "cpu bf16[2, 4, 8, 8]"
  del t1509
  t1511 = torch.permute(t1172, (0, 1, 3, 2))  # t1511: "cpu bf16[2, 4, 8, 8]"
    # t1511 = ltorch.permute(t1172, (0, 1, 3, 2))  # t1511: "cpu bf16[2, 4, 8, 8]"
      # t1511 = prims.transpose(t1172, (0, 1, 3, 2))  # t1511: "cpu bf16[2, 4, 8, 8]"
  del t1172
  t1512 = torch.matmul(t1511, t1508)  # t1512: "cpu bf16[2, 4, 8, 8]"
    # t1512 = ltorch.matmul(t1511, t1508)  # t1512: "cpu bf16[2, 4, 8, 8]"
      # t1512 = prims.matmul(t1511, t1508)  # t1512: "cpu bf16[2, 4, 8, 8]"
  del t1511, t1508
  t1514 = Tensor.to(t1512, torch.float32, copy=True)  # t1514: "cpu f32[2, 4, 8, 8]"
    # t1514 = ltorch.to(t1512, torch.float32, None, device=None, dtype=None, copy=True, memory_format=None)  # t1514: "cpu f32[2, 4, 8, 8]"
      # t1513 = prims.clone(t1512)  # t1513: "cpu bf16[2, 4, 8, 8]"
      # t1514 = prims.convert_element_type(t1513, dtypes.float32)  # t1514: "cpu f32[2, 4, 8, 8]"
  del t1512
  t1515 = torch.mul(0.5946035575013605, t1514)  # t1515: "cpu f32[2, 4, 8, 8]"
    # t1515 = ltorch.mul(0.5946035575013605, t1514)  # t1515: "cpu f32[2, 4, 8, 8]"
      # t1515 = prims.mul(0.5946035575013605, t1514)  # t1515: "cpu f32[2, 4, 8, 8]"
  del t1514
  t1517 = Tensor.to(t1515, torch.bfloat16, copy=True)  # t1517: "cpu bf16[2, 4, 8, 8]"
    # t1517 = ltorch.to(t1515, torch.bfloat16, None, device=None, dtype=None, copy=True, memory_format=None)  # t1517: "cpu bf16[2, 4, 8, 8]"
      # t1516 = prims.clone(t1515)  # t1516: "cpu f32[2, 4, 8, 8]"
      # t1517 = prims.convert_element_type(t1516, dtypes.bfloat16)  # t1517: "cpu bf16[2, 4, 8, 8]"
  del t1515
  t1518 = torch.permute(t1517, (0, 1, 3, 2))  # t1518: "cpu bf16[2, 4, 8, 8]"
    # t1518 = ltorch.permute(t1517, (0, 1, 3, 2))  # t1518: "cpu bf16[2, 4, 8, 8]"
      # t1518 = prims.transpose(t1517, (0, 1, 3, 2))  # t1518: "cpu bf16[2, 4, 8, 8]"
  del t1517
  t1520 = Tensor.to(t1510, torch.float32, copy=True)  # t1520: "cpu f32[2, 4, 8, 8]"
    # t1520 = ltorch.to(t1510, torch.float32, None, device=None, dtype=None, copy=True, memory_format=None)  # t1520: "cpu f32[2, 4, 8, 8]"
      # t1519 = prims.clone(t1510)  # t1519: "cpu bf16[2, 4, 8, 8]"
      # t1520 = prims.convert_element_type(t1519, dtypes.float32)  # t1520: "cpu f32[2, 4, 8, 8]"
  del t1510
  t1521 = torch.mul(0.5946035575013605, t1520)  # t1521: "cpu f32[2, 4, 8, 8]"
    # t1521 = ltorch.mul(0.5946035575013605, t1520)  # t1521: "cpu f32[2, 4, 8, 8]"
      # t1521 = prims.mul(0.5946035575013605, t1520)  # t1521: "cpu f32[2, 4, 8, 8]"
  del t1520
  t1523 = Tensor.to(t1521, torch.bfloat16, copy=True)  # t1523: "cpu bf16[2, 4, 8, 8]"
    # t1523 = ltorch.to(t1521, torch.bfloat16, None, device=None, dtype=None, copy=True, memory_format=None)  # t1523: "cpu bf16[2, 4, 8, 8]"
      # t1522 = prims.clone(t1521)  # t1522: "cpu f32[2, 4, 8, 8]"
      # t1523 = prims.convert_element_type(t1522, dtypes.bfloat16)  # t1523: "cpu bf16[2, 4, 8, 8]"
  del t1521
  t1524 = torch.permute(t1490, (0, 2, 1, 3))  # t1524: "cpu bf16[2, 8, 4, 8]"
    # t1524 = ltorch.permute(t1490, (0, 2, 1, 3))  # t1524: "cpu bf16[2, 8, 4, 8]"
      # t1524 = prims.transpose(t1490, (0, 2, 1, 3))  # t1524: "cpu bf16[2, 8, 4, 8]"
  del t1490
  t1525 = torch_prims_reshape_impl(t1524, (2, 8, 32))  # t1525: "cpu bf16[2, 8, 32]"
  del t1524
  t1526 = torch.permute(t1518, (0, 2, 1, 3))  # t1526: "cpu bf16[2, 8, 4, 8]"
    # t1526 = ltorch.permute(t1518, (0, 2, 1, 3))  # t1526: "cpu bf16[2, 8, 4, 8]"
      # t1526 = prims.transpose(t1518, (0, 2, 1, 3))  # t1526: "cpu bf16[2, 8, 4, 8]"
  del t1518
  t1527 = torch_prims_reshape_impl(t1526, (2, 8, 32))  # t1527: "cpu bf16[2, 8, 32]"
  del t1526
  t1528 = torch.permute(t1523, (0, 2, 1, 3))  # t1528: "cpu bf16[2, 8, 4, 8]"
    # t1528 = ltorch.permute(t1523, (0, 2, 1, 3))  # t1528: "cpu bf16[2, 8, 4, 8]"
      # t1528 = prims.transpose(t1523, (0, 2, 1, 3))  # t1528: "cpu bf16[2, 8, 4, 8]"
  del t1523
  t1529 = torch_prims_reshape_impl(t1528, (2, 8, 32))  # t1529: "cpu bf16[2, 8, 32]"
  del t1528
  t1530 = torch.cat((t1529, t1527, t1525), 2)  # t1530: "cpu bf16[2, 8, 96]"
    # t1530 = ltorch.cat((t1529, t1527, t1525), 2)  # t1530: "cpu bf16[2, 8, 96]"
      # t1530 = prims.cat([t1529, t1527, t1525], 2)  # t1530: "cpu bf16[2, 8, 96]"
  del t1529, t1527, t1525
  t1531 = torch.reshape(t1530, (-1, 96))  # t1531: "cpu bf16[16, 96]"
    # t1531 = ltorch.reshape(t1530, (-1, 96))  # t1531: "cpu bf16[16, 96]"
      # t1531 = prims.reshape(t1530, (16, 96))  # t1531: "cpu bf16[16, 96]"
  t1532 = torch.matmul(t1531, t1155)  # t1532: "cpu bf16[16, 32]"
    # t1532 = ltorch.matmul(t1531, t1155)  # t1532: "cpu bf16[16, 32]"
      # t1532 = prims.matmul(t1531, t1155)  # t1532: "cpu bf16[16, 32]"
  del t1531, t1155
  t1533 = torch.reshape(t1532, (2, 8, 32))  # t1533: "cpu bf16[2, 8, 32]"
    # t1533 = ltorch.reshape(t1532, (2, 8, 32))  # t1533: "cpu bf16[2, 8, 32]"
      # t1533 = prims.reshape(t1532, (2, 8, 32))  # t1533: "cpu bf16[2, 8, 32]"
  del t1532
  t1534 = torch.reshape(t1530, (-1, 96))  # t1534: "cpu bf16[16, 96]"
    # t1534 = ltorch.reshape(t1530, (-1, 96))  # t1534: "cpu bf16[16, 96]"
      # t1534 = prims.reshape(t1530, (16, 96))  # t1534: "cpu bf16[16, 96]"
  t1535 = torch.permute(t1534, (1, 0))  # t1535: "cpu bf16[96, 16]"
    # t1535 = ltorch.permute(t1534, (1, 0))  # t1535: "cpu bf16[96, 16]"
      # t1535 = prims.transpose(t1534, (1, 0))  # t1535: "cpu bf16[96, 16]"
  del t1534
  t1536 = torch.reshape(t1153, (-1, 32))  # t1536: "cpu bf16[16, 32]"
    # t1536 = ltorch.reshape(t1153, (-1, 32))  # t1536: "cpu bf16[16, 32]"
      # t1536 = prims.reshape(t1153, (16, 32))  # t1536: "cpu bf16[16, 32]"
  del t1153
  t1537 = torch.matmul(t1535, t1536)  # t1537: "cpu bf16[96, 32]"
    # t1537 = ltorch.matmul(t1535, t1536)  # t1537: "cpu bf16[96, 32]"
      # t1537 = prims.matmul(t1535, t1536)  # t1537: "cpu bf16[96, 32]"
  del t1535, t1536
  t1540 = torch.sum(t1530, (0, 1), False, dtype=None)  # t1540: "cpu bf16[96]"
    # t1540 = ltorch.sum(t1530, (0, 1), False, dtype=None)  # t1540: "cpu bf16[96]"
      # t1538 = ltorch.to(t1530, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t1538: "cpu f32[2, 8, 96]"
        # t1538 = prims.convert_element_type(t1530, dtypes.float32)  # t1538: "cpu f32[2, 8, 96]"
      # t1539 = prims.sum(t1538, (0, 1))  # t1539: "cpu f32[96]"
      # t1540 = ltorch.to(t1539, dtypes.bfloat16, None, device=None, dtype=None, copy=False, memory_format=None)  # t1540: "cpu bf16[96]"
        # t1540 = prims.convert_element_type(t1539, dtypes.bfloat16)  # t1540: "cpu bf16[96]"
  del t1530
  t1542 = Tensor.to(t1540, torch.float32, copy=True)  # t1542: "cpu f32[96]"
    # t1542 = ltorch.to(t1540, torch.float32, None, device=None, dtype=None, copy=True, memory_format=None)  # t1542: "cpu f32[96]"
      # t1541 = prims.clone(t1540)  # t1541: "cpu bf16[96]"
      # t1542 = prims.convert_element_type(t1541, dtypes.float32)  # t1542: "cpu f32[96]"
  del t1540
  t1544 = Tensor.to(t1537, torch.float32, copy=True)  # t1544: "cpu f32[96, 32]"
    # t1544 = ltorch.to(t1537, torch.float32, None, device=None, dtype=None, copy=True, memory_format=None)  # t1544: "cpu f32[96, 32]"
      # t1543 = prims.clone(t1537)  # t1543: "cpu bf16[96, 32]"
      # t1544 = prims.convert_element_type(t1543, dtypes.float32)  # t1544: "cpu f32[96, 32]"
  del t1537
  t1546 = Tensor.to(t1533, torch.float32, copy=True)  # t1546: "cpu f32[2, 8, 32]"
    # t1546 = ltorch.to(t1533, torch.float32, None, device=None, dtype=None, copy=True, memory_format=None)  # t1546: "cpu f32[2, 8, 32]"
      # t1545 = prims.clone(t1533)  # t1545: "cpu bf16[2, 8, 32]"
      # t1546 = prims.convert_element_type(t1545, dtypes.float32)  # t1546: "cpu f32[2, 8, 32]"
  del t1533
  t1549 = torch.sum(t1546, (0, 1), False, dtype=None)  # t1549: "cpu f32[32]"
    # t1549 = ltorch.sum(t1546, (0, 1), False, dtype=None)  # t1549: "cpu f32[32]"
      # t1547 = ltorch.to(t1546, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t1547: "cpu f32[2, 8, 32]"
        # t1547 = prims.shallow_copy(t1546)  # t1547: "cpu f32[2, 8, 32]"
      # t1548 = prims.sum(t1547, (0, 1))  # t1548: "cpu f32[32]"
      # t1549 = ltorch.to(t1548, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t1549: "cpu f32[32]"
        # t1549 = prims.shallow_copy(t1548)  # t1549: "cpu f32[32]"
  t1550 = torch.mul(t1145, t1546)  # t1550: "cpu f32[2, 8, 32]"
    # t1550 = ltorch.mul(t1145, t1546)  # t1550: "cpu f32[2, 8, 32]"
      # t1550 = prims.mul(t1145, t1546)  # t1550: "cpu f32[2, 8, 32]"
  del t1145
  t1551 = torch.mul(t1142, t1546)  # t1551: "cpu f32[2, 8, 32]"
    # t1551 = ltorch.mul(t1142, t1546)  # t1551: "cpu f32[2, 8, 32]"
      # t1551 = prims.mul(t1142, t1546)  # t1551: "cpu f32[2, 8, 32]"
  del t1142, t1546
  t1554 = torch.sum(t1551, (0, 1), False, dtype=None)  # t1554: "cpu f32[32]"
    # t1554 = ltorch.sum(t1551, (0, 1), False, dtype=None)  # t1554: "cpu f32[32]"
      # t1552 = ltorch.to(t1551, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t1552: "cpu f32[2, 8, 32]"
        # t1552 = prims.shallow_copy(t1551)  # t1552: "cpu f32[2, 8, 32]"
      # t1553 = prims.sum(t1552, (0, 1))  # t1553: "cpu f32[32]"
      # t1554 = ltorch.to(t1553, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t1554: "cpu f32[32]"
        # t1554 = prims.shallow_copy(t1553)  # t1554: "cpu f32[32]"
  del t1551
  t1555 = torch.mul(t1141, t1550)  # t1555: "cpu f32[2, 8, 32]"
    # t1555 = ltorch.mul(t1141, t1550)  # t1555: "cpu f32[2, 8, 32]"
      # t1555 = prims.mul(t1141, t1550)  # t1555: "cpu f32[2, 8, 32]"
  del t1141
  t1556 = torch.mul(t1140, t1550)  # t1556: "cpu f32[2, 8, 32]"
    # t1556 = ltorch.mul(t1140, t1550)  # t1556: "cpu f32[2, 8, 32]"
      # t1556 = prims.mul(t1140, t1550)  # t1556: "cpu f32[2, 8, 32]"
  del t1140, t1550
  t1559 = torch.sum(t1556, (2,), False, dtype=None)  # t1559: "cpu f32[2, 8]"
    # t1559 = ltorch.sum(t1556, (2,), False, dtype=None)  # t1559: "cpu f32[2, 8]"
      # t1557 = ltorch.to(t1556, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t1557: "cpu f32[2, 8, 32]"
        # t1557 = prims.shallow_copy(t1556)  # t1557: "cpu f32[2, 8, 32]"
      # t1558 = prims.sum(t1557, (2,))  # t1558: "cpu f32[2, 8]"
      # t1559 = ltorch.to(t1558, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t1559: "cpu f32[2, 8]"
        # t1559 = prims.shallow_copy(t1558)  # t1559: "cpu f32[2, 8]"
  del t1556
  t1560 = torch.unsqueeze(t1559, 2)  # t1560: "cpu f32[2, 8, 1]"
    # t1560 = ltorch.unsqueeze(t1559, 2)  # t1560: "cpu f32[2, 8, 1]"
      # t1560 = prims.broadcast_in_dim(t1559, [2, 8, 1], [0, 1])  # t1560: "cpu f32[2, 8, 1]"
  del t1559
  t1561 = Tensor.expand(t1560, [2, 8, 1])  # t1561: "cpu f32[2, 8, 1]"
    # t1561 = ltorch.expand(t1560, [2, 8, 1])  # t1561: "cpu f32[2, 8, 1]"
      # t1561 = prims.broadcast_in_dim(t1560, (2, 8, 1), (0, 1, 2))  # t1561: "cpu f32[2, 8, 1]"
  del t1560
  t1562 = torch.neg(t1555)  # t1562: "cpu f32[2, 8, 32]"
    # t1562 = ltorch.neg(t1555)  # t1562: "cpu f32[2, 8, 32]"
      # t1562 = prims.neg(t1555)  # t1562: "cpu f32[2, 8, 32]"
  t1563 = torch.add(t1468, t1555, alpha=1)  # t1563: "cpu f32[2, 8, 32]"
    # t1563 = ltorch.add(t1468, t1555, alpha=1)  # t1563: "cpu f32[2, 8, 32]"
      # t1563 = prims.add(t1468, t1555)  # t1563: "cpu f32[2, 8, 32]"
  del t1468, t1555
  t1566 = torch.sum(t1562, (2,), False, dtype=None)  # t1566: "cpu f32[2, 8]"
    # t1566 = ltorch.sum(t1562, (2,), False, dtype=None)  # t1566: "cpu f32[2, 8]"
      # t1564 = ltorch.to(t1562, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t1564: "cpu f32[2, 8, 32]"
        # t1564 = prims.shallow_copy(t1562)  # t1564: "cpu f32[2, 8, 32]"
      # t1565 = prims.sum(t1564, (2,))  # t1565: "cpu f32[2, 8]"
      # t1566 = ltorch.to(t1565, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t1566: "cpu f32[2, 8]"
        # t1566 = prims.shallow_copy(t1565)  # t1566: "cpu f32[2, 8]"
  del t1562
  t1567 = torch.unsqueeze(t1566, 2)  # t1567: "cpu f32[2, 8, 1]"
    # t1567 = ltorch.unsqueeze(t1566, 2)  # t1567: "cpu f32[2, 8, 1]"
      # t1567 = prims.broadcast_in_dim(t1566, [2, 8, 1], [0, 1])  # t1567: "cpu f32[2, 8, 1]"
  del t1566
  t1568 = Tensor.expand(t1567, [2, 8, 1])  # t1568: "cpu f32[2, 8, 1]"
    # t1568 = ltorch.expand(t1567, [2, 8, 1])  # t1568: "cpu f32[2, 8, 1]"
      # t1568 = prims.broadcast_in_dim(t1567, (2, 8, 1), (0, 1, 2))  # t1568: "cpu f32[2, 8, 1]"
  del t1567
  t1569 = torch.mul(-0.5, t1561)  # t1569: "cpu f32[2, 8, 1]"
    # t1569 = ltorch.mul(-0.5, t1561)  # t1569: "cpu f32[2, 8, 1]"
      # t1569 = prims.mul(-0.5, t1561)  # t1569: "cpu f32[2, 8, 1]"
  del t1561
  t1570 = torch.pow(t1138, 3.0)  # t1570: "cpu f32[2, 8, 1]"
    # t1570 = ltorch.pow(t1138, 3.0)  # t1570: "cpu f32[2, 8, 1]"
      # t1570 = prims.pow(t1138, 3.0)  # t1570: "cpu f32[2, 8, 1]"
  del t1138
  t1571 = torch.mul(t1569, t1570)  # t1571: "cpu f32[2, 8, 1]"
    # t1571 = ltorch.mul(t1569, t1570)  # t1571: "cpu f32[2, 8, 1]"
      # t1571 = prims.mul(t1569, t1570)  # t1571: "cpu f32[2, 8, 1]"
  del t1569, t1570
  t1574 = torch.sum(t1568, (2,), False, dtype=None)  # t1574: "cpu f32[2, 8]"
    # t1574 = ltorch.sum(t1568, (2,), False, dtype=None)  # t1574: "cpu f32[2, 8]"
      # t1572 = ltorch.to(t1568, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t1572: "cpu f32[2, 8, 1]"
        # t1572 = prims.shallow_copy(t1568)  # t1572: "cpu f32[2, 8, 1]"
      # t1573 = prims.sum(t1572, (2,))  # t1573: "cpu f32[2, 8]"
      # t1574 = ltorch.to(t1573, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t1574: "cpu f32[2, 8]"
        # t1574 = prims.shallow_copy(t1573)  # t1574: "cpu f32[2, 8]"
  del t1568
  t1577 = torch.sum(t1571, (2,), False, dtype=None)  # t1577: "cpu f32[2, 8]"
    # t1577 = ltorch.sum(t1571, (2,), False, dtype=None)  # t1577: "cpu f32[2, 8]"
      # t1575 = ltorch.to(t1571, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t1575: "cpu f32[2, 8, 1]"
        # t1575 = prims.shallow_copy(t1571)  # t1575: "cpu f32[2, 8, 1]"
      # t1576 = prims.sum(t1575, (2,))  # t1576: "cpu f32[2, 8]"
      # t1577 = ltorch.to(t1576, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t1577: "cpu f32[2, 8]"
        # t1577 = prims.shallow_copy(t1576)  # t1577: "cpu f32[2, 8]"
  del t1571
  t1578 = torch.unsqueeze(t1574, 2)  # t1578: "cpu f32[2, 8, 1]"
    # t1578 = ltorch.unsqueeze(t1574, 2)  # t1578: "cpu f32[2, 8, 1]"
      # t1578 = prims.broadcast_in_dim(t1574, [2, 8, 1], [0, 1])  # t1578: "cpu f32[2, 8, 1]"
  del t1574
  t1579 = Tensor.expand(t1578, [2, 8, 1])  # t1579: "cpu f32[2, 8, 1]"
    # t1579 = ltorch.expand(t1578, [2, 8, 1])  # t1579: "cpu f32[2, 8, 1]"
      # t1579 = prims.broadcast_in_dim(t1578, (2, 8, 1), (0, 1, 2))  # t1579: "cpu f32[2, 8, 1]"
  del t1578
  t1580 = Tensor.expand(t1579, (2, 8, 32))  # t1580: "cpu f32[2, 8, 32]"
    # t1580 = ltorch.expand(t1579, (2, 8, 32))  # t1580: "cpu f32[2, 8, 32]"
      # t1580 = prims.broadcast_in_dim(t1579, (2, 8, 32), (0, 1, 2))  # t1580: "cpu f32[2, 8, 32]"
  del t1579
  t1581 = torch.mul(0.03125, t1580)  # t1581: "cpu f32[2, 8, 32]"
    # t1581 = ltorch.mul(0.03125, t1580)  # t1581: "cpu f32[2, 8, 32]"
      # t1581 = prims.mul(0.03125, t1580)  # t1581: "cpu f32[2, 8, 32]"
  del t1580
  t1582 = torch.unsqueeze(t1577, 2)  # t1582: "cpu f32[2, 8, 1]"
    # t1582 = ltorch.unsqueeze(t1577, 2)  # t1582: "cpu f32[2, 8, 1]"
      # t1582 = prims.broadcast_in_dim(t1577, [2, 8, 1], [0, 1])  # t1582: "cpu f32[2, 8, 1]"
  del t1577
  t1583 = Tensor.expand(t1582, [2, 8, 1])  # t1583: "cpu f32[2, 8, 1]"
    # t1583 = ltorch.expand(t1582, [2, 8, 1])  # t1583: "cpu f32[2, 8, 1]"
      # t1583 = prims.broadcast_in_dim(t1582, (2, 8, 1), (0, 1, 2))  # t1583: "cpu f32[2, 8, 1]"
  del t1582
  t1584 = Tensor.expand(t1583, (2, 8, 32))  # t1584: "cpu f32[2, 8, 32]"
    # t1584 = ltorch.expand(t1583, (2, 8, 32))  # t1584: "cpu f32[2, 8, 32]"
      # t1584 = prims.broadcast_in_dim(t1583, (2, 8, 32), (0, 1, 2))  # t1584: "cpu f32[2, 8, 32]"
  del t1583
  t1585 = torch.unsqueeze(t1130, 2)  # t1585: "cpu f32[2, 8, 1]"
    # t1585 = ltorch.unsqueeze(t1130, 2)  # t1585: "cpu f32[2, 8, 1]"
      # t1585 = prims.broadcast_in_dim(t1130, [2, 8, 1], [0, 1])  # t1585: "cpu f32[2, 8, 1]"
  del t1130
  t1586 = Tensor.expand(t1585, [2, 8, 1])  # t1586: "cpu f32[2, 8, 1]"
    # t1586 = ltorch.expand(t1585, [2, 8, 1])  # t1586: "cpu f32[2, 8, 1]"
      # t1586 = prims.broadcast_in_dim(t1585, (2, 8, 1), (0, 1, 2))  # t1586: "cpu f32[2, 8, 1]"
  del t1585
  t1587 = Tensor.expand(t1586, (2, 8, 32))  # t1587: "cpu f32[2, 8, 32]"
    # t1587 = ltorch.expand(t1586, (2, 8, 32))  # t1587: "cpu f32[2, 8, 32]"
      # t1587 = prims.broadcast_in_dim(t1586, (2, 8, 32), (0, 1, 2))  # t1587: "cpu f32[2, 8, 32]"
  del t1586
  t1588 = torch.mul(2, t1584)  # t1588: "cpu f32[2, 8, 32]"
    # t1588 = ltorch.mul(2, t1584)  # t1588: "cpu f32[2, 8, 32]"
      # t1588 = prims.mul(2.0, t1584)  # t1588: "cpu f32[2, 8, 32]"
  del t1584
  t1589 = torch.sub(t1123, t1587, alpha=1)  # t1589: "cpu f32[2, 8, 32]"
    # t1589 = ltorch.sub(t1123, t1587, alpha=1)  # t1589: "cpu f32[2, 8, 32]"
      # t1589 = prims.sub(t1123, t1587)  # t1589: "cpu f32[2, 8, 32]"
  del t1123, t1587
  t1590 = torch.mul(t1588, t1589)  # t1590: "cpu f32[2, 8, 32]"
    # t1590 = ltorch.mul(t1588, t1589)  # t1590: "cpu f32[2, 8, 32]"
      # t1590 = prims.mul(t1588, t1589)  # t1590: "cpu f32[2, 8, 32]"
  del t1588, t1589
  t1591 = torch.true_divide(t1590, 32)  # t1591: "cpu f32[2, 8, 32]"
    # t1591 = ltorch.true_divide(t1590, 32)  # t1591: "cpu f32[2, 8, 32]"
      # t1591 = prims.div(t1590, 32.0)  # t1591: "cpu f32[2, 8, 32]"
  del t1590
  t1592 = torch.add(t1581, t1591, alpha=1)  # t1592: "cpu f32[2, 8, 32]"
    # t1592 = ltorch.add(t1581, t1591, alpha=1)  # t1592: "cpu f32[2, 8, 32]"
      # t1592 = prims.add(t1581, t1591)  # t1592: "cpu f32[2, 8, 32]"
  del t1581, t1591
  t1593 = torch.add(t1563, t1592, alpha=1)  # t1593: "cpu f32[2, 8, 32]"
    # t1593 = ltorch.add(t1563, t1592, alpha=1)  # t1593: "cpu f32[2, 8, 32]"
      # t1593 = prims.add(t1563, t1592)  # t1593: "cpu f32[2, 8, 32]"
  del t1563, t1592
  return (t1593, t1549, t1554, t1424, t1429, t1417, t1419, t1331, t1333, t1482, t1484, t1542, t1544)